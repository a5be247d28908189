package io.tas.auth;

import io.tas.account.Account;
import io.tas.account.AccountEnums.AccountStatus;
import io.tas.account.AccountService;
import io.tas.auth.ApiKeyService.ResolvedKey;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ratelimit.FailureLimit;

import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;

/**
 * DESIGN request path, auth step: headers -> key -> timestamp window -> signature -> passphrase ->
 * IP allow-list -> account status. Each failure is the real platform's code (wire facts §3 "Condition -> code").
 * Failures that cost work (40006 a key lookup, 40009 a MAC, 40012 a PBKDF2) are limited per client IP, and wrong
 * passphrases per key too (D122): past the limit the answer is the §8 429, given before that work is done.
 */
public final class Authenticator {
    private final ApiKeyService keys;
    private final AccountService accounts;
    private final Clock clock;
    private final long windowMs;
    private final FailureLimit perIp;   // null: failures are not limited
    private final FailureLimit perKey;

    /** Failures not limited (tests that count them, and TAS_RATE_LIMITS=off). */
    public Authenticator(ApiKeyService keys, AccountService accounts, Clock clock, Duration window) {
        this(keys, accounts, clock, window, null, null);
    }

    /** Failed authentications limited per IP (40006, 40009, 40012) and wrong passphrases per key as well (D122). */
    public Authenticator(ApiKeyService keys, AccountService accounts, Clock clock, Duration window, FailureLimit perIp, FailureLimit perKey) {
        this.keys = keys;
        this.accounts = accounts;
        this.clock = clock;
        this.windowMs = window.toMillis();
        this.perIp = perIp;
        this.perKey = perKey;
    }

    public Caller authenticate(SignedRequest r) {
        return authenticate(r, false);
    }

    /**
     * A WebSocket login (websocket-wire.md "Login"): the same checks, over `timestamp + "GET" + "/user/verify"`, with the
     * timestamp in seconds (both clients) or milliseconds (D186).
     */
    public Caller login(String accessKey, String passphrase, String timestamp, String sign, String clientIp) {
        return authenticate(new SignedRequest("GET", "/user/verify", "", new byte[0], accessKey, sign, timestamp, passphrase, clientIp), true);
    }

    private Caller authenticate(SignedRequest r, boolean secondsAllowed) {
        if (blank(r.accessKey())) throw new ApiException(ErrorCode.ACCESS_KEY_EMPTY);
        if (blank(r.sign())) throw new ApiException(ErrorCode.ACCESS_SIGN_EMPTY);
        if (blank(r.timestamp())) throw new ApiException(ErrorCode.ACCESS_TIMESTAMP_INVALID);
        if (blank(r.passphrase())) throw new ApiException(ErrorCode.ACCESS_PASSPHRASE_EMPTY);

        if (perIp != null && perIp.exhausted(String.valueOf(r.clientIp()))) throw new ApiException(ErrorCode.TOO_MANY_REQUESTS);
        ResolvedKey key = keys.resolve(r.accessKey()).orElseThrow(() -> failed(r, ErrorCode.ACCESS_KEY_INVALID));

        long ts = parseTimestamp(r.timestamp());
        if (secondsAllowed && ts < 100_000_000_000L) ts *= 1000; // seconds until the year 5138
        if (Math.abs(clock.millis() - ts) > windowMs) throw new ApiException(ErrorCode.TIMESTAMP_EXPIRED);

        // The signature before the passphrase: the slow passphrase hash then runs only for callers who hold the
        // secret, and a caller without it learns nothing about the passphrase (40009 either way).
        if (!key.signature().verify(r.sign(), r.timestamp(), r.method(), r.rawPath(), r.rawQuery(), r.body())) {
            throw failed(r, ErrorCode.SIGNATURE_ERROR);
        }

        if (!key.passphraseVerified(r.passphrase())) {
            // The slow check: someone who holds the secret may guess passphrases from many IPs, so per key too.
            if (perKey != null && perKey.exhausted(r.accessKey())) throw new ApiException(ErrorCode.TOO_MANY_REQUESTS);
            if (!key.passphraseMatches(r.passphrase())) {
                if (perKey != null) perKey.failed(r.accessKey());
                throw failed(r, ErrorCode.PASSPHRASE_INCORRECT);
            }
        }

        if (!ipAllowed(key.key(), r.clientIp())) throw new ApiException(ErrorCode.INVALID_IP);

        Account account = accounts.find(key.key().uid()).orElseThrow(() -> new ApiException(ErrorCode.ACCESS_KEY_INVALID));
        if (account.status() == AccountStatus.frozen) throw new ApiException(ErrorCode.USER_STATUS_ABNORMAL);
        return new Caller(key.key(), account);
    }

    /** The failure's answer, counted against the caller's IP. */
    private ApiException failed(SignedRequest r, ErrorCode code) {
        if (perIp != null) perIp.failed(String.valueOf(r.clientIp()));
        return new ApiException(code);
    }

    /** Requests refused with 429 because their IP had used up its failed authentications (D122; a metric). */
    public long refusedByIp() { return perIp == null ? 0 : perIp.refused(); }

    /** Requests refused with 429 because their key had used up its wrong passphrases (D122; a metric). */
    public long refusedByKey() { return perKey == null ? 0 : perKey.refused(); }

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
