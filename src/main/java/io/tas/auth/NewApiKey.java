package io.tas.auth;

import io.tas.auth.ApiKey.PermType;

import java.util.List;
import java.util.Set;

/**
 * Command: create an API key. accessKey, secret and passphrase may be fixed by a seed file (the demo
 * credentials are documented); otherwise accessKey and secret are generated and the passphrase is required.
 */
public record NewApiKey(
        long uid,
        String label,
        PermType permType,
        Set<Permission> permissions,
        List<String> ips,
        String accessKey,
        String secret,
        String passphrase) {}
