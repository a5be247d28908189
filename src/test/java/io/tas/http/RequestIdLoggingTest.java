package io.tas.http;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.helidon.webserver.WebServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tas.ratelimit.RateLimiter;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** The request id reaches the log lines written while a request is handled (MDC requestId), and leaves with it. */
class RequestIdLoggingTest {
    private static final org.slf4j.Logger handlerLog = LoggerFactory.getLogger("io.tas.test.RequestIdLogging");

    @Test
    void logLinesInsideARequestCarryItsIdAndTheMdcIsClearedAfter() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger("io.tas.test.RequestIdLogging");
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        logger.addAppender(lines);
        AtomicReference<Thread> handlerThread = new AtomicReference<>();
        Routes routes = new Routes().bind(Endpoint.PUBLIC_TIME, r -> {
            handlerThread.set(Thread.currentThread());
            handlerLog.info("handling");
            return "ok";
        });
        RequestPipeline pipeline = new RequestPipeline(routes, null, null, new RateLimiter(false, Clock.systemUTC()),
                Clock.systemUTC(), 1024, new SimpleMeterRegistry());
        WebServer server = WebServer.builder().host("127.0.0.1").port(0).routing(r -> r.any(pipeline::handle)).shutdownHook(false).build().start();
        try {
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            URI uri = URI.create("http://127.0.0.1:" + server.port() + "/api/v2/public/time");
            HttpResponse<String> given = http.send(HttpRequest.newBuilder(uri).header("X-Request-Id", "trace-7").build(), HttpResponse.BodyHandlers.ofString());
            HttpResponse<String> generated = http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(given.statusCode()).isEqualTo(200);
            assertThat(lines.list).hasSize(2);
            assertThat(lines.list.get(0).getMDCPropertyMap()).containsEntry(RequestPipeline.MDC_REQUEST_ID, "trace-7");
            assertThat(lines.list.get(1).getMDCPropertyMap())
                    .containsEntry(RequestPipeline.MDC_REQUEST_ID, generated.headers().firstValue("X-Request-Id").orElseThrow());
        } finally {
            server.stop();
            logger.detachAppender(lines);
        }
    }

    @Test
    void onlySaneTokensAreTakenFromTheCaller() {
        assertThat(RequestPipeline.saneRequestId("a-Z_0.9")).isTrue();
        assertThat(RequestPipeline.saneRequestId("x".repeat(64))).isTrue();
        assertThat(RequestPipeline.saneRequestId("x".repeat(65))).isFalse();
        assertThat(RequestPipeline.saneRequestId("")).isFalse();
        assertThat(RequestPipeline.saneRequestId(null)).isFalse();
        assertThat(RequestPipeline.saneRequestId("a b")).isFalse();
        assertThat(RequestPipeline.saneRequestId("a\nb")).isFalse();
        assertThat(RequestPipeline.saneRequestId("é")).isFalse();
        assertThat(MDC.get(RequestPipeline.MDC_REQUEST_ID)).isNull();
    }
}
