package io.tas.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.error.ErrorCode;
import io.tas.http.Json;
import io.tas.support.RawHttp.Answer;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What every answer of the API listener must be (spec §2.1, wire facts §2): the envelope {code, msg, requestTime, data}
 * in that order, code one of ErrorCode (the README's table), HTTP status the code's, data null on an error, never 5xx and
 * never 40015 (a server failure, D93).
 */
final class EnvelopeCheck {
    static final Map<String, ErrorCode> CODES = Arrays.stream(ErrorCode.values()).collect(Collectors.toMap(ErrorCode::code, Function.identity()));
    private static final List<String> FIELDS = List.of("code", "msg", "requestTime", "data");

    private EnvelopeCheck() {}

    /** The answer's code, or throws an AssertionError-worthy description (returned as "!problem"). */
    static String codeOrProblem(Answer a) {
        if (a.status() < 0) return "!no answer (" + a.head() + ")";
        if (a.status() >= 500) return "!" + a.status() + " " + a.text();
        JsonNode body;
        try {
            body = Json.MAPPER.readTree(a.body());
        } catch (Exception e) {
            return "!not JSON: HTTP " + a.status() + " " + abbreviate(a.text());
        }
        if (body == null || !body.isObject() || !Replies.names(body).equals(FIELDS)) return "!not the envelope: HTTP " + a.status() + " " + abbreviate(a.text());
        ErrorCode code = body.get("code").isTextual() ? CODES.get(body.get("code").asText()) : null;
        if (code == null) return "!undocumented code: " + abbreviate(a.text());
        if (code.httpStatus() != a.status()) return "!HTTP " + a.status() + " with code " + code.code();
        // 40015 is HTTP 400 on the wire (D93) but still a server failure: no client input may cause it.
        if (code == ErrorCode.SYSTEM_ERROR) return "!server failure 40015: " + abbreviate(a.text());
        if (!body.get("requestTime").isIntegralNumber()) return "!requestTime not an integer: " + abbreviate(a.text());
        if (code != ErrorCode.SUCCESS && !body.get("data").isNull()) return "!error with data: " + abbreviate(a.text());
        if (code == ErrorCode.SUCCESS && !body.get("msg").asText().equals("success")) return "!success without msg success";
        return code.code();
    }

    static String abbreviate(String s) { return s.length() > 300 ? s.substring(0, 300) + "..." : s; }
}
