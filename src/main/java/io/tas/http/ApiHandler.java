package io.tas.http;

/** One endpoint's handler: parse and validate, call a service, return the envelope's data (record, list, string, boolean or null). */
@FunctionalInterface
public interface ApiHandler {
    Object handle(ApiRequest request);
}
