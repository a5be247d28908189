package io.tas.auth;

/** What authentication needs from a request, free of any HTTP library type. Header values may be null. */
public record SignedRequest(
        String method,
        String rawPath,
        String rawQuery,
        byte[] body,
        String accessKey,
        String sign,
        String timestamp,
        String passphrase,
        String clientIp) {}
