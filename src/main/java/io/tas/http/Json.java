package io.tas.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.math.BigDecimal;

/** The one JSON mapper, and the wire form of money. */
public final class Json {
    /**
     * D207: Jackson's default buffer pool is one per thread, and the server runs every connection on its own virtual
     * thread: 5,000 WebSocket connections kept 5,000 sets of buffers (about 80 MB of char[]) alive. A shared pool keeps as
     * many as are in use at once (jackson-core #1266 recommends it for virtual threads).
     */
    public static final ObjectMapper MAPPER = new ObjectMapper(com.fasterxml.jackson.core.JsonFactory.builder()
            .recyclerPool(com.fasterxml.jackson.core.util.JsonRecyclerPools.sharedConcurrentDequePool()).build())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .enable(com.fasterxml.jackson.core.JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
            .setSerializationInclusion(JsonInclude.Include.ALWAYS);

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(32).build());
    }

    private Json() {}

    /** Money and quantities on the wire: a plain string, no exponent, no trailing zeros; null becomes "". */
    public static String plain(BigDecimal v) {
        if (v == null) return "";
        if (v.signum() == 0) return "0";
        return v.stripTrailingZeros().toPlainString();
    }

    /**
     * A tree as JSON text through the shared buffer pool (D207): JsonNode.toString() goes through Jackson's internal
     * mapper, which keeps a set of buffers per thread.
     */
    public static String text(com.fasterxml.jackson.databind.JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree could not be written", e);
        }
    }

    public static String str(Long v) { return v == null ? "" : Long.toString(v); }
}
