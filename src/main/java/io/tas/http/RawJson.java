package io.tas.http;

/**
 * Envelope data that is already JSON, for hot read endpoints that cache their serialized view. The
 * pipeline writes it into the envelope as it is.
 */
public record RawJson(byte[] utf8) {
    public static RawJson of(Object view) {
        try {
            return new RawJson(Json.MAPPER.writeValueAsBytes(view));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
