package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.support.ApiClient;
import io.tas.support.Databases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/** GET /admin/v1/state-hash: what the proof tests compare around refused requests. */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class StateHashApiTest extends SharedServerTest {

    @Test
    void aDepositChangesTheHashAndOnlyTheLedgersTables() {
        admin.fundedAccount("hash-a-" + kind, "USDT", "10");
        admin.settleJobs(); // D96: no other test's switch job may land between the two hashes
        JsonNode before = admin.get("/admin/v1/state-hash").data();
        assertThat(admin.stateHash()).as("reads change nothing").isEqualTo(before.get("hash").asText());

        admin.post("/admin/v1/ledger/deposit", "{\"uid\":" + admin.lastUid + ",\"account\":\"unified\",\"coin\":\"USDT\",\"amount\":\"1.5\",\"ref\":\"hash-dep-" + kind + "\"}");
        JsonNode after = admin.get("/admin/v1/state-hash").data();

        assertThat(after.get("hash").asText()).isNotEqualTo(before.get("hash").asText());
        assertThat(after.get("tables").get("balance").get("hash").asText())
                .isNotEqualTo(before.get("tables").get("balance").get("hash").asText());
        assertThat(after.get("tables").get("api_key")).isEqualTo(before.get("tables").get("api_key"));
        assertThat(after.get("tables").get("account_settings")).isEqualTo(before.get("tables").get("account_settings"));
    }

    @Test
    void aRefusedRequestLeavesTheHash() {
        var creds = admin.fundedAccount("hash-b-" + kind, "USDT", "10");
        ApiClient client = server.client(creds);
        admin.settleJobs();
        String before = admin.stateHash();
        // No such coin in the account: refused, nothing converted.
        assertThat(client.post("/api/v3/convert/small-assets-trade", "{\"fromCoinList\":[\"NOPE\"]}").code()).isNotEqualTo("00000");
        assertThat(admin.stateHash()).isEqualTo(before);
        // A write that succeeds moves it, so the comparison above could fail.
        assertThat(client.post("/api/v3/account/set-hold-mode", "{\"holdMode\":\"hedge_mode\"}").code()).isEqualTo("00000");
        assertThat(admin.stateHash()).isNotEqualTo(before);
    }
}
