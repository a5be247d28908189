package io.tas.http;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** §2.1 every response: code and msg strings, requestTime an integer in ms, data per endpoint. */
@JsonPropertyOrder({"code", "msg", "requestTime", "data"})
public record Envelope(String code, String msg, long requestTime, Object data) {

    public static Envelope success(long now, Object data) {
        return new Envelope("00000", "success", now, data);
    }
}
