package io.tas.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.auth.Caller;

import java.util.Map;

/**
 * A request after routing, authentication and guards: what handlers see. Parameters come from the
 * query for GET and from the JSON body for POST (spec §1 convention 2).
 */
public record ApiRequest(Endpoint endpoint, Caller caller, Map<String, String> query, JsonNode body, String clientIp, long now) {

    public Params params() { return new Params(this); }

    public long uid() { return caller.uid(); }
}
