package io.tas.auth;

import io.tas.account.AccountService;
import io.tas.auth.ApiKeyStore.StoredKey;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.store.Database;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Creates, revokes and resolves API keys. Resolution is on the hot path of every private request, so
 * a resolved key (decrypted secret ready as a MAC, and a fast passphrase check once the slow hash has
 * matched) is cached for a short TTL; revocation on this node drops it at once, other nodes within the TTL.
 */
public final class ApiKeyService {
    private static final long CACHE_TTL_MS = 10_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Database db;
    private final Clock clock;
    private final SecretCipher cipher;
    private final AccountService accounts;
    private final ApiKeyStore store = new ApiKeyStore();
    private final ConcurrentMap<String, ResolvedKey> cache = new ConcurrentHashMap<>();

    public ApiKeyService(Database db, Clock clock, SecretCipher cipher, AccountService accounts) {
        this.db = db;
        this.clock = clock;
        this.cipher = cipher;
        this.accounts = accounts;
    }

    /** The only time the secret is returned. */
    public record CreatedKey(ApiKey key, String secret) {}

    public CreatedKey create(NewApiKey cmd) {
        if (accounts.find(cmd.uid()).isEmpty()) throw new ApiException(ErrorCode.PARAM_NOT_EXIST, cmd.uid());
        if (cmd.passphrase() == null || cmd.passphrase().isBlank()) throw new ApiException(ErrorCode.PARAM_EMPTY, "passphrase");
        if (cmd.permissions().contains(Permission.NONE)) throw new ApiException(ErrorCode.PARAM_ERROR, "permissions");
        String accessKey = cmd.accessKey() != null ? cmd.accessKey() : "bg_" + HexFormat.of().formatHex(randomBytes(16));
        String secret = cmd.secret() != null ? cmd.secret() : HexFormat.of().formatHex(randomBytes(32));
        String salt = PassphraseHash.newSalt();
        ApiKey key = new ApiKey(accessKey, cmd.uid(), cmd.label() == null ? "" : cmd.label(), cmd.permType(),
                cmd.permissions(), cmd.ips(), clock.millis(), false);
        db.tx(dsl -> {
            if (store.find(dsl, accessKey).isPresent()) throw new ApiException(ErrorCode.PARAM_ERROR, "accessKey");
            store.insert(dsl, new StoredKey(key, cipher.encrypt(secret), salt, PassphraseHash.hash(cmd.passphrase(), salt)));
            return null;
        });
        return new CreatedKey(key, secret);
    }

    public boolean revoke(String accessKey) {
        boolean done = db.tx(dsl -> store.revoke(dsl, accessKey, clock.millis()));
        cache.remove(accessKey);
        return done;
    }

    public List<ApiKey> list(long uid) {
        return store.listByUid(db.dsl(), uid);
    }

    /**
     * A live key ready to verify requests, or empty when unknown or revoked. One reload per key at a
     * time (compute), and a reload keeps the passphrase already verified when the stored hash is unchanged,
     * so a TTL expiry under load never turns into a burst of slow PBKDF2 checks.
     */
    public Optional<ResolvedKey> resolve(String accessKey) {
        long now = clock.millis();
        ResolvedKey cached = cache.get(accessKey);
        if (cached != null && cached.fresh(now)) return Optional.of(cached);
        ResolvedKey resolved = cache.compute(accessKey, (k, old) -> {
            if (old != null && old.fresh(now)) return old;
            Optional<StoredKey> stored = store.find(db.dsl(), k).filter(s -> !s.key().revoked());
            if (stored.isEmpty()) return null;
            StoredKey s = stored.get();
            if (old != null && old.hash.equals(s.passphraseHash())) return old.refreshed(s.key(), now);
            return new ResolvedKey(s.key(), new Signature(cipher.decrypt(s.secretCipher())), s.passphraseSalt(), s.passphraseHash(), now, null);
        });
        return Optional.ofNullable(resolved);
    }

    public void invalidateAll() { cache.clear(); }

    /** A key with what verification needs. Never serialised, never logged. */
    public static final class ResolvedKey {
        private final ApiKey key;
        private final Signature signature;
        private final String salt;
        private final String hash;
        private final long loadedAt;
        // The passphrase bytes once the slow hash has matched. The decrypted secret is in memory anyway,
        // so this adds no exposure, and a request then costs one constant-time compare.
        private volatile byte[] verified;

        ResolvedKey(ApiKey key, Signature signature, String salt, String hash, long loadedAt, byte[] verified) {
            this.key = key;
            this.signature = signature;
            this.salt = salt;
            this.hash = hash;
            this.loadedAt = loadedAt;
            this.verified = verified;
        }

        boolean fresh(long now) { return loadedAt <= now && now < loadedAt + CACHE_TTL_MS; }

        ResolvedKey refreshed(ApiKey latest, long now) { return new ResolvedKey(latest, signature, salt, hash, now, verified); }

        public ApiKey key() { return key; }

        public Signature signature() { return signature; }

        public boolean passphraseMatches(String passphrase) {
            byte[] given = passphrase.getBytes(StandardCharsets.UTF_8);
            byte[] known = verified;
            if (known != null && MessageDigest.isEqual(known, given)) return true;
            if (!PassphraseHash.matches(passphrase, salt, hash)) return false;
            verified = given;
            return true;
        }
    }

    private static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }
}
