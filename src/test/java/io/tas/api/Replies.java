package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.support.ApiClient.Reply;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What API tests expect of an answer: an error in the envelope (HTTP 400, the code, the message, data null), or success. */
public final class Replies {
    private Replies() {}

    /** An object's field names in wire order (for exact-shape assertions). */
    static List<String> names(JsonNode obj) {
        return obj.properties().stream().map(Map.Entry::getKey).toList();
    }

    /** A refusal: HTTP 400, the code, the message (when given), an integer requestTime and data null (§2.1, wire facts §2). */
    static void assertError(Reply r, String code, String msg) {
        assertThat(r.status()).as(r.raw()).isEqualTo(400);
        assertThat(r.code()).as(r.raw()).isEqualTo(code);
        if (msg != null) assertThat(r.msg()).as(r.raw()).isEqualTo(msg);
        assertThat(r.body().get("requestTime").isIntegralNumber()).as(r.raw()).isTrue();
        assertThat(r.body().get("data").isNull()).as(r.raw()).isTrue();
    }

    static void assertError(Reply r, String code) { assertError(r, code, null); }

    /** Success: HTTP 200, code 00000. */
    public static void ok(Reply r) {
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        assertThat(r.code()).as(r.raw()).isEqualTo("00000");
    }
}
