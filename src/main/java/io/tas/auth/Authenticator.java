package io.tas.auth;

import io.tas.account.Account;
import io.tas.account.AccountEnums.AccountStatus;
import io.tas.account.AccountService;
import io.tas.auth.ApiKeyService.ResolvedKey;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;

/**
 * DESIGN request path, auth step: headers -> key -> timestamp window -> signature -> passphrase ->
 * IP allow-list -> account status. Each failure is the real platform's code (wire facts §3 "Condition -> code").
 */
public final class Authenticator {
    private final ApiKeyService keys;
    private final AccountService accounts;
    private final Clock clock;
    private final long windowMs;

    public Authenticator(ApiKeyService keys, AccountService accounts, Clock clock, Duration window) {
        this.keys = keys;
        this.accounts = accounts;
        this.clock = clock;
        this.windowMs = window.toMillis();
    }

    public Caller authenticate(SignedRequest r) {
        if (blank(r.accessKey())) throw new ApiException(ErrorCode.ACCESS_KEY_EMPTY);
        if (blank(r.sign())) throw new ApiException(ErrorCode.ACCESS_SIGN_EMPTY);
        if (blank(r.timestamp())) throw new ApiException(ErrorCode.ACCESS_TIMESTAMP_INVALID);
        if (blank(r.passphrase())) throw new ApiException(ErrorCode.ACCESS_PASSPHRASE_EMPTY);

        ResolvedKey key = keys.resolve(r.accessKey()).orElseThrow(() -> new ApiException(ErrorCode.ACCESS_KEY_INVALID));

        long ts = parseTimestamp(r.timestamp());
        if (Math.abs(clock.millis() - ts) > windowMs) throw new ApiException(ErrorCode.TIMESTAMP_EXPIRED);

        // The signature before the passphrase: the slow passphrase hash then runs only for callers who hold the
        // secret, and a caller without it learns nothing about the passphrase (40009 either way).
        if (!key.signature().verify(r.sign(), r.timestamp(), r.method(), r.rawPath(), r.rawQuery(), r.body())) {
            throw new ApiException(ErrorCode.SIGNATURE_ERROR);
        }

        if (!key.passphraseMatches(r.passphrase())) throw new ApiException(ErrorCode.PASSPHRASE_INCORRECT);

        if (!ipAllowed(key.key(), r.clientIp())) throw new ApiException(ErrorCode.INVALID_IP);

        Account account = accounts.find(key.key().uid()).orElseThrow(() -> new ApiException(ErrorCode.ACCESS_KEY_INVALID));
        if (account.status() == AccountStatus.frozen) throw new ApiException(ErrorCode.USER_STATUS_ABNORMAL);
        return new Caller(key.key(), account);
    }

    private static long parseTimestamp(String s) {
        // Unix milliseconds as decimal digits (wire facts §1.1); anything else is 40005.
        if (s.length() > 15) throw new ApiException(ErrorCode.ACCESS_TIMESTAMP_INVALID);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') throw new ApiException(ErrorCode.ACCESS_TIMESTAMP_INVALID);
        }
        return Long.parseLong(s);
    }

    static boolean ipAllowed(ApiKey key, String clientIp) {
        if (key.ips().isEmpty()) return true;
        String client = canonical(clientIp);
        for (String allowed : key.ips()) {
            if (canonical(allowed).equals(client)) return true;
        }
        return false;
    }

    private static String canonical(String ip) {
        try {
            return InetAddress.ofLiteral(ip.trim()).getHostAddress();
        } catch (IllegalArgumentException e) {
            return ip.trim(); // not a literal: compared as written, never resolved through DNS
        }
    }

    private static boolean blank(String s) { return s == null || s.isBlank(); }
}
