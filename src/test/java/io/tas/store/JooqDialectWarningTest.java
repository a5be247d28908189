package io.tas.store;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.tas.support.Databases;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.time.Clock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * D87: a start on the PostgreSQL Debian ships (15 here, in CI too) logs no jOOQ dialect-version warning, and nothing
 * else at WARN from jOOQ: the known warning is silenced by name in logback.xml, not jOOQ as a whole.
 */
class JooqDialectWarningTest {
    @Test
    void aStartOnDebiansPostgresLogsNoDialectWarning() {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        root.addAppender(lines);
        try (TestServer server = TestServer.start(Databases.Kind.POSTGRES, Clock.systemUTC())) {
            assertThat(server.baseUrl()).isNotEmpty();
        } finally {
            root.detachAppender(lines);
        }
        assertThat(lines.list).filteredOn(e -> e.getLoggerName().startsWith("org.jooq") && e.getLevel().isGreaterOrEqual(Level.WARN))
                .extracting(ILoggingEvent::getFormattedMessage).isEmpty();
        // The silenced logger is exactly the one jOOQ uses for it, so other jOOQ warnings still show.
        assertThat(((Logger) LoggerFactory.getLogger("org.jooq.impl.DefaultExecuteContext.logVersionSupport")).isWarnEnabled()).isFalse();
        assertThat(((Logger) LoggerFactory.getLogger("org.jooq.impl.DefaultExecuteContext")).isWarnEnabled()).isTrue();
    }
}
