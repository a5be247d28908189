package io.tas.api;

import io.tas.http.Endpoint;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.Databases;
import io.tas.support.ServerPool;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 10 item 5: the demo-trading header (`paptrading: 1`, which bitget-api's demoTrading option and ccxt's sandbox
 * mode send, wire facts §1.6) is accepted on every row: each GET row of the catalog answers the same code with it as
 * without it. (The POST rows' handling is the same pipeline; BitgetSdkConformanceTest drives one through the SDK.)
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class DemoTradingHeaderTest {
    @Parameter Databases.Kind kind;

    @Test
    void everyGetRowAnswersTheSameWithTheHeader() {
        TestServer server = ServerPool.next(kind);
        List<String> differences = new ArrayList<>();
        int rows = 0;
        for (Endpoint e : Endpoint.values()) {
            if (!e.method().equals("GET")) continue;
            rows++;
            Credentials who = e.family() == Endpoint.Family.CLASSIC ? Credentials.CLASSIC : Credentials.MAIN_RW;
            ApiClient plain = server.client(who);
            ServerPool.nextSecond(kind);
            Reply without = plain.get(e.path());
            ServerPool.nextSecond(kind);
            Reply with = plain.getWithHeaders(e.path(), "paptrading", "1");
            if (!with.code().equals(without.code()) || with.status() != without.status()) {
                differences.add(e.path() + ": " + without.raw() + " vs " + with.raw());
            }
            assertThat(with.status()).as(e.path()).isLessThan(500);
        }
        assertThat(differences).isEmpty();
        assertThat(rows).isGreaterThan(20);
    }
}
