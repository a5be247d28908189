package io.tas.sandbox;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** D191: what the journal keeps, per key and in all, and what it redacts. */
class RequestJournalTest {
    private static final Clock T = Clock.fixed(Instant.ofEpochMilli(1767571200000L), ZoneOffset.UTC);
    private static final RequestJournal.Filter ALL = new RequestJournal.Filter(null, null, null, null, null, null, null, 1_000);

    private static void record(RequestJournal j, String key, String body) {
        j.record("rest", key, "POST", "/api/v3/trade/place-order", "", Map.of("ACCESS-SIGN", "s1gn", "ACCESS-KEY", key),
                body.getBytes(StandardCharsets.UTF_8), 200, "00000", 1, null);
    }

    @Test
    void eachKeyKeepsItsLastEntriesAndSecretsNeverStay() {
        RequestJournal j = new RequestJournal(true, 3, T);
        for (int i = 0; i < 5; i++) record(j, "k1", "{\"clientOid\":\"" + i + "\",\"extra\":[{\"secretKey\":\"hush" + i + "\"}]}");
        record(j, "k2", "not json, no secret");
        var k1 = j.find(new RequestJournal.Filter("k1", null, null, null, null, null, null, null));
        assertThat(k1).extracting(RequestJournal.Entry::seq).containsExactly(3L, 4L, 5L);
        assertThat(k1.getFirst().body()).contains("\"clientOid\":\"2\"", "\"secretKey\":\"***\"").doesNotContain("hush");
        assertThat(k1.getFirst().headers()).containsEntry("ACCESS-SIGN", "***").containsEntry("ACCESS-KEY", "k1");
        assertThat(k1.getFirst().time()).isEqualTo(1767571200000L);
        assertThat(j.find(ALL)).hasSize(4);
        // A text that looks secret but is not JSON is not kept at all.
        record(j, "k3", "passphrase=Secret1");
        assertThat(j.find(new RequestJournal.Filter("k3", null, null, null, null, null, null, null)).getFirst().body()).isEqualTo("***");
        j.clear();
        assertThat(j.find(ALL)).isEmpty();
        record(j, "k1", "{}");
        assertThat(j.find(ALL).getFirst().seq()).as("numbering starts again").isEqualTo(1L);
    }

    @Test
    void memoryIsBoundedByDroppingTheKeysWrittenLongestAgo() {
        RequestJournal j = new RequestJournal(true, 10_000, T);
        String body = "{\"x\":\"" + "a".repeat(RequestJournal.MAX_BODY_CHARS - 10) + "\"}";
        // Three keys of a third of the budget each, and a little more: fewer keys than MAX_KEYS, so the budget decides.
        int perKey = (int) (RequestJournal.MAX_CHARS / 3 / body.length());
        for (int i = 0; i < 3; i++) for (int n = 0; n < perKey; n++) record(j, "key-" + i, body);
        assertThat(j.find(new RequestJournal.Filter("key-0", null, null, null, null, null, null, null))).as("the oldest key went").isEmpty();
        for (String kept : new String[]{"key-1", "key-2"}) {
            assertThat(j.find(new RequestJournal.Filter(kept, null, null, null, null, null, null, 1_000))).as(kept).hasSize(perKey);
        }
        RequestJournal off = new RequestJournal(false, 10, T);
        record(off, "k", "{}");
        assertThat(off.find(ALL)).isEmpty();
    }
}
