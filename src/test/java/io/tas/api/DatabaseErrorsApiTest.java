package io.tas.api;

import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Databases;
import io.tas.support.MutableClock;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * tas_db_errors_total (issue 11 item 5) on a real database failure: a table a read needs is taken away under a running
 * node (renamed from another connection), the caller gets the error envelope (40015, no stack trace), the failure is
 * counted once under its kind, and the node answers again once the table is back. Its own node: the shared ones keep
 * their tables.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class DatabaseErrorsApiTest {
    private static final String DEPOSITS = "/api/v3/account/deposit-records";
    @Parameter Databases.Kind kind;

    private static double dbErrors(TestServer server, String kind) {
        return SharedRateLimitTest.metric(server, "tas_db_errors_total", "kind=\"" + kind + "\"");
    }

    private static void sql(TestServer server, String statement) throws SQLException {
        try (Connection c = DriverManager.getConnection(server.db.url(), server.db.user(), ""); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    @Test
    void aFailingQueryIsAnEnvelopeAndCountedOnceByKind() throws SQLException {
        try (TestServer server = TestServer.start(kind, new MutableClock(System.currentTimeMillis()), c -> c)) {
            ApiClient client = server.client(new Admin(server).fundedAccount("dberr-1"));
            long now = server.clock.millis();
            String deposits = DEPOSITS + "?startTime=" + (now - 86_400_000L) + "&endTime=" + (now + 86_400_000L);
            assertThat(client.get(deposits).code()).isEqualTo("00000");
            assertThat(dbErrors(server, "other")).isZero();
            assertThat(dbErrors(server, "connection")).isZero();

            sql(server, "alter table deposit_record rename to deposit_record_away");
            try {
                Reply r = client.get(deposits);
                // The envelope of the one server-side code; its HTTP status is the catalog's (ErrorCode.SYSTEM_ERROR).
                assertThat(r.status()).as(r.raw()).isEqualTo(io.tas.error.ErrorCode.SYSTEM_ERROR.httpStatus());
                assertThat(r.code()).as(r.raw()).isEqualTo("40015");
                assertThat(r.msg()).isEqualTo(io.tas.error.ErrorCode.SYSTEM_ERROR.message());
                assertThat(r.body().get("data").isNull()).isTrue();
                assertThat(r.raw()).doesNotContain("deposit_record", "Exception", "at io.tas");
                // A missing table is neither a timeout nor a lost connection: "other", exactly once.
                assertThat(dbErrors(server, "other")).isEqualTo(1);
                assertThat(dbErrors(server, "connection") + dbErrors(server, "timeout") + dbErrors(server, "constraint")
                        + dbErrors(server, "conflict")).isZero();
            } finally {
                sql(server, "alter table deposit_record_away rename to deposit_record");
            }
            assertThat(client.get(deposits).code()).isEqualTo("00000");
            assertThat(dbErrors(server, "other")).isEqualTo(1);
        }
    }
}
