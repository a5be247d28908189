package io.tas.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Parameter reading with the platform's errors: 40019 names every missing one, 40020 a bad value (wire facts §7). */
public final class Params {
    private final ApiRequest request;
    private final boolean line; // a batch body's line: its fields are the line's, not the row's parameters

    Params(ApiRequest request) { this(request, false); }

    private Params(ApiRequest request, boolean line) {
        this.request = request;
        this.line = line;
    }

    /** The parameters of one line of a batch body: a JSON object inside the top-level array (cancel-batch, place-batch). */
    public static Params of(JsonNode line) {
        return new Params(new ApiRequest(Endpoint.PLACE_BATCH, null, java.util.Map.of(), line, null, 0), true);
    }

    /** Issue 29: the contract check learns each parameter a row reads (D195). */
    private void tell(String name, boolean required) {
        AnswerTap tap = AnswerTap.installed();
        if (tap != null && !line) tap.parameterRead(request.endpoint().method(), request.endpoint().path(), name, required);
    }

    /**
     * The raw string, or null when absent or empty. A NUL character is 40020: no value has one, and PostgreSQL refuses
     * it in text (issue 12 fuzz: symbol=BTCUSDT%00 on spot fills was a 500 on PostgreSQL only).
     */
    public String get(String name) {
        tell(name, false);
        String v;
        if (request.body() != null && !request.endpoint().method().equals("GET")) {
            JsonNode n = request.body().get(name);
            v = n == null || n.isNull() ? null : n.isBigDecimal() ? plainNumber(n.decimalValue()) : (n.isValueNode() ? n.asText() : n.toString());
        } else {
            v = request.query().get(name);
        }
        if (v != null && v.indexOf('\0') >= 0) throw new ApiException(ErrorCode.PARAM_ERROR, name);
        return v == null || v.isEmpty() ? null : v;
    }

    /**
     * A JSON number as the digits it was sent with (D116): 0.0005 stays 0.0005, not 5.0E-4, and 1e-7 becomes 0.0000001.
     * One with more than 128 digits or an exponent beyond 128 keeps its exponent form, which no parameter accepts: a
     * plain form of 1e100000000 would be a hundred million characters.
     */
    static String plainNumber(java.math.BigDecimal d) {
        return d.precision() > 128 || Math.abs((long) d.scale()) > 128 ? d.toString() : d.toPlainString();
    }

    /** Throws one 40019 naming all missing parameters, comma-joined as the platform does. */
    public Params require(String... names) {
        List<String> missing = new ArrayList<>();
        for (String n : names) {
            tell(n, true);
            if (get(n) == null) missing.add(n);
        }
        if (!missing.isEmpty()) throw new ApiException(ErrorCode.PARAM_EMPTY, String.join(",", missing));
        return this;
    }

    public <T> T parsed(String name, Function<String, T> parser) {
        String v = get(name);
        if (v == null) return null;
        try {
            return parser.apply(v);
        } catch (RuntimeException e) {
            throw new ApiException(ErrorCode.PARAM_ERROR, name);
        }
    }

    public <E extends Enum<E>> E enumValue(String name, Class<E> type) {
        return parsed(name, v -> Enum.valueOf(type, v));
    }

    /** An integer in [min, max], or the default when absent; out of range or malformed is 40020. */
    public int intInRange(String name, int defaultValue, int min, int max) {
        AnswerTap tap = AnswerTap.installed();
        if (tap != null && !line) tap.parameterRange(request.endpoint().method(), request.endpoint().path(), name, min, max, defaultValue);
        Integer v = parsed(name, s -> {
            if (!s.matches("\\d{1,9}")) throw new NumberFormatException(s);
            return Integer.parseInt(s);
        });
        if (v == null) return defaultValue;
        if (v < min || v > max) throw new ApiException(ErrorCode.PARAM_ERROR, name);
        return v;
    }

    /** A JSON array of non-empty strings (POST bodies only); absent is null, anything else 40020. */
    public List<String> stringList(String name) {
        tell(name, false);
        JsonNode n = request.body() == null ? null : request.body().get(name);
        if (n == null || n.isNull()) return null;
        if (!n.isArray()) throw new ApiException(ErrorCode.PARAM_ERROR, name);
        List<String> out = new ArrayList<>();
        for (JsonNode item : n) {
            if (!item.isTextual() || item.asText().isBlank() || item.asText().length() > 16 || item.asText().indexOf('\0') >= 0) {
                throw new ApiException(ErrorCode.PARAM_ERROR, name);
            }
            out.add(item.asText());
        }
        return out;
    }

    /** A Unix-millisecond timestamp. */
    public Long millis(String name) {
        return parsed(name, s -> {
            if (!s.matches("\\d{1,15}")) throw new NumberFormatException(s);
            return Long.parseLong(s);
        });
    }

    /** A positive 64-bit ID such as a cursor. */
    public Long id(String name) {
        return parsed(name, s -> {
            if (!s.matches("\\d{1,19}")) throw new NumberFormatException(s);
            return Long.parseLong(s);
        });
    }

    /**
     * A plain decimal (no exponent; a sign allowed). Its size is not judged here: the caller's check (Ledger.checkAmount,
     * Instrument.checkLeverage) answers 40808 for more decimals or integer digits than the value can have (D34).
     */
    public BigDecimal decimal(String name) {
        return parsed(name, s -> {
            if (!s.matches("-?\\d{1,64}(\\.\\d{1,64})?")) throw new NumberFormatException(s);
            return new BigDecimal(s);
        });
    }
}
