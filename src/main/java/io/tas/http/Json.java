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
    public static final ObjectMapper MAPPER = new ObjectMapper()
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

    public static String str(Long v) { return v == null ? "" : Long.toString(v); }
}
