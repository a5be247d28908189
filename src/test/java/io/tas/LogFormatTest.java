package io.tas;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import com.fasterxml.jackson.databind.JsonNode;
import io.tas.config.Config;
import io.tas.http.Json;
import io.tas.http.RequestPipeline;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** TAS_LOG_FORMAT: the shipped logback.xml, text by default and one JSON object per line with json; both carry the request id. */
class LogFormatTest {

    /** The encoder of the appender that logback.xml attaches to the root logger with TAS_LOG_FORMAT=format (null: unset). */
    @SuppressWarnings("unchecked")
    private static Encoder<ILoggingEvent> rootEncoder(String format) throws Exception {
        String old = System.getProperty("TAS_LOG_FORMAT");
        LoggerContext context = new LoggerContext();
        try {
            if (format == null) System.clearProperty("TAS_LOG_FORMAT");
            else System.setProperty("TAS_LOG_FORMAT", format); // logback reads system properties before the environment
            JoranConfigurator configurator = new JoranConfigurator();
            configurator.setContext(context);
            configurator.doConfigure(LogFormatTest.class.getResource("/logback.xml"));
        } finally {
            if (old == null) System.clearProperty("TAS_LOG_FORMAT");
            else System.setProperty("TAS_LOG_FORMAT", old);
        }
        // No warning or error while configuring (logback would print its whole status at every start).
        assertThat(context.getStatusManager().getCopyOfStatusList()).allSatisfy(s -> assertThat(s.getLevel()).as(s.toString()).isZero());
        var root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        var appenders = root.iteratorForAppenders();
        assertThat(appenders.hasNext()).as("an appender on the root logger").isTrue();
        var appender = (OutputStreamAppender<ILoggingEvent>) appenders.next();
        assertThat(appenders.hasNext()).as("exactly one console appender").isFalse();
        return appender.getEncoder();
    }

    /** An event with the request id in its MDC (null: an event outside any request). */
    private static LoggingEvent event(String requestId) {
        LoggerContext context = new LoggerContext();
        LoggingEvent e = new LoggingEvent(LogFormatTest.class.getName(), context.getLogger("io.tas.Test"), Level.INFO,
                "deposit of {} \"quoted\"", null, new Object[]{"10 USDT"});
        e.setMDCPropertyMap(requestId == null ? Map.of() : Map.of(RequestPipeline.MDC_REQUEST_ID, requestId));
        return e;
    }

    @Test
    void jsonFormatWritesOneParseableObjectPerLineWithTheRequestId() throws Exception {
        Encoder<ILoggingEvent> encoder = rootEncoder("json");
        encoder.start();
        String line = new String(encoder.encode(event("req-42")), StandardCharsets.UTF_8);
        assertThat(line).endsWith("\n");
        assertThat(line.strip()).doesNotContain("\n");
        JsonNode json = Json.MAPPER.readTree(line);
        assertThat(json.path("level").asText()).isEqualTo("INFO");
        assertThat(json.path("loggerName").asText()).isEqualTo("io.tas.Test");
        assertThat(json.path("formattedMessage").asText()).isEqualTo("deposit of 10 USDT \"quoted\"");
        assertThat(json.path("mdc").path("requestId").asText()).isEqualTo("req-42");
    }

    @Test
    void textFormatIsTheDefaultAndCarriesTheRequestId() throws Exception {
        Encoder<ILoggingEvent> encoder = rootEncoder(null);
        encoder.start();
        String line = new String(encoder.encode(event("req-43")), StandardCharsets.UTF_8);
        assertThat(line).contains("] req-43 io.tas.Test - deposit of 10 USDT").doesNotStartWith("{");
        assertThat(new String(encoder.encode(event(null)), StandardCharsets.UTF_8)).as("a line outside a request").contains("] io.tas.Test - deposit");
    }

    @Test
    void anUnknownFormatIsRefusedAtStart() {
        assertThat(Config.fromEnv(Map.of()).features().logFormat()).isEqualTo("text");
        assertThat(Config.fromEnv(Map.of("TAS_LOG_FORMAT", "json")).features().logFormat()).isEqualTo("json");
        assertThatThrownBy(() -> Config.fromEnv(Map.of("TAS_LOG_FORMAT", "JSON"))).isInstanceOf(Config.Invalid.class)
                .hasMessageContaining("TAS_LOG_FORMAT");
    }
}
