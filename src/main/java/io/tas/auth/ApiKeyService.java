package io.tas.auth;

import io.tas.account.AccountService;
import io.tas.auth.ApiKeyStore.StoredKey;
import io.tas.common.Caches;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.store.ChangeFeed;
import io.tas.store.Database;
import com.github.benmanes.caffeine.cache.Cache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Creates, revokes and resolves API keys. Resolution is on the hot path of every private request:
 * <ul>
 * <li>a key not in the in-memory index of live keys is unknown without a query (KeyIndex);</li>
 * <li>a resolved key (decrypted secret ready as a MAC, and a fast passphrase check once the slow hash has matched)
 * is cached for a short TTL, bounded in number and dropped when idle.</li>
 * </ul>
 * Creations and revocations publish "apikey:+KEY" / "apikey:-KEY" on the change feed inside their transaction,
 * so other PostgreSQL nodes update their index and drop the cached key when the transaction commits.
 */
public final class ApiKeyService {
    private static final Logger log = LoggerFactory.getLogger(ApiKeyService.class);
    private static final long CACHE_TTL_MS = 10_000;
    private static final Duration CACHE_IDLE = Duration.ofMinutes(10);
    private static final long CACHE_MAX_KEYS = 100_000;
    private static final long INDEX_RETRY_MS = 5_000;
    private static final String CREATED = "apikey:+";
    private static final String REVOKED = "apikey:-";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Database db;
    private final Clock clock;
    private final SecretCipher cipher;
    private final AccountService accounts;
    private final ChangeFeed changes;
    private final ApiKeyStore store;
    private final Cache<String, ResolvedKey> cache;
    private final KeyIndex index = new KeyIndex();
    /** The database read in flight per key: concurrent requests for one key share it. */
    private final ConcurrentMap<String, CompletableFuture<Optional<ResolvedKey>>> loading = new ConcurrentHashMap<>();
    /** Counts invalidations: a read that began before one does not cache what it read. */
    private final AtomicLong invalidations = new AtomicLong();
    private final AtomicLong nextIndexRetry = new AtomicLong();
    private final LongAdder storeLookups = new LongAdder();
    private final LongAdder passphraseHashes = new LongAdder();

    public ApiKeyService(Database db, Clock clock, SecretCipher cipher, AccountService accounts, ChangeFeed changes) {
        this(db, clock, cipher, accounts, changes, new ApiKeyStore());
    }

    /** With the SQL of the given store (tests slow one key's read down). */
    ApiKeyService(Database db, Clock clock, SecretCipher cipher, AccountService accounts, ChangeFeed changes, ApiKeyStore store) {
        this.store = store;
        this.db = db;
        this.clock = clock;
        this.cipher = cipher;
        this.accounts = accounts;
        this.changes = changes;
        this.cache = Caches.upkeepOnCaller().ticker(() -> clock.millis() * 1_000_000L)
                .maximumSize(CACHE_MAX_KEYS).expireAfterAccess(CACHE_IDLE).build();
        changes.subscribe(this::onChange); // before the first load, so no change falls between the two
        index.reload(() -> db.read(store::liveAccessKeys));
    }

    private void onChange(String topic) {
        if (topic.equals(ChangeFeed.EVERYTHING)) {
            invalidateAll();
        } else if (topic.startsWith(CREATED)) {
            index.add(topic.substring(CREATED.length()));
        } else if (topic.startsWith(REVOKED)) {
            String key = topic.substring(REVOKED.length());
            index.remove(key);
            invalidate(key);
        }
    }

    /** Drops a cached key; a read in flight for it then answers its own request but is not cached (see load). */
    private void invalidate(String accessKey) {
        invalidations.incrementAndGet();
        cache.invalidate(accessKey);
    }

    /** The only time the secret is returned. */
    public record CreatedKey(ApiKey key, String secret) {}

    public CreatedKey create(NewApiKey cmd) {
        return db.tx(tx -> create(tx, cmd));
    }

    /** Creates the key in the caller's transaction (a seed): this node knows it after the commit, the others on it. */
    public CreatedKey create(io.tas.store.Tx tx, NewApiKey cmd) {
        if (accounts.find(tx, cmd.uid()).isEmpty()) throw new ApiException(ErrorCode.PARAM_NOT_EXIST, cmd.uid());
        if (cmd.passphrase() == null || cmd.passphrase().isBlank()) throw new ApiException(ErrorCode.PARAM_EMPTY, "passphrase");
        if (cmd.permissions().contains(Permission.NONE)) throw new ApiException(ErrorCode.PARAM_ERROR, "permissions");
        String accessKey = cmd.accessKey() != null ? cmd.accessKey() : "bg_" + HexFormat.of().formatHex(randomBytes(16));
        String secret = cmd.secret() != null ? cmd.secret() : HexFormat.of().formatHex(randomBytes(32));
        String salt = PassphraseHash.newSalt();
        ApiKey key = new ApiKey(accessKey, cmd.uid(), cmd.label() == null ? "" : cmd.label(), cmd.permType(),
                cmd.permissions(), cmd.ips(), clock.millis(), false);
        if (store.find(tx.dsl(), accessKey).isPresent()) throw new ApiException(ErrorCode.PARAM_ERROR, "accessKey");
        store.insert(tx.dsl(), new StoredKey(key, cipher.encrypt(secret), salt, PassphraseHash.hash(cmd.passphrase(), salt)));
        changes.publish(tx, CREATED + accessKey);
        tx.afterCommit(() -> index.add(accessKey));
        return new CreatedKey(key, secret);
    }

    public boolean revoke(String accessKey) {
        boolean done = db.tx(tx -> {
            boolean revoked = store.revoke(tx.dsl(), accessKey, clock.millis());
            if (revoked) changes.publish(tx, REVOKED + accessKey);
            return revoked;
        });
        if (done) index.remove(accessKey);
        invalidate(accessKey);
        return done;
    }

    public List<ApiKey> list(long uid) {
        return db.read(dsl -> store.listByUid(dsl, uid));
    }

    /**
     * A live key ready to verify requests, or empty when unknown or revoked. A key outside the index costs
     * nothing while the change feed is in sync (otherwise another node's new key could be missing from it).
     * One database read per key at a time (the others wait for it), run outside any lock: a slow read of one key
     * never holds up another's (it ran inside the cache map's compute, which locks a whole bin of keys). A reload
     * keeps the passphrase already verified when the stored hash is unchanged, so a TTL expiry under load never
     * turns into a burst of slow PBKDF2 checks.
     */
    public Optional<ResolvedKey> resolve(String accessKey) {
        if (!index.mayBeLive(accessKey) && changes.inSync()) return Optional.empty();
        if (!index.loaded()) retryIndexLoad();
        long now = clock.millis();
        ResolvedKey cached = cache.getIfPresent(accessKey);
        if (cached != null && cached.fresh(now)) return Optional.of(cached);
        CompletableFuture<Optional<ResolvedKey>> mine = new CompletableFuture<>();
        CompletableFuture<Optional<ResolvedKey>> running = loading.putIfAbsent(accessKey, mine);
        if (running != null) return awaited(running); // the read in flight answers for this request too
        try {
            Optional<ResolvedKey> loaded = load(accessKey, cached, now);
            mine.complete(loaded);
            return loaded;
        } catch (RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            loading.remove(accessKey, mine);
        }
    }

    /** The outcome of another request's read: its value, or its failure as that request saw it (say, the database's). */
    private static Optional<ResolvedKey> awaited(CompletableFuture<Optional<ResolvedKey>> running) {
        try {
            return running.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error r) throw r;
            throw e;
        }
    }

    /** Reads the key and caches it, unless a revocation or reset came while it read (the read may predate it). */
    private Optional<ResolvedKey> load(String accessKey, ResolvedKey old, long now) {
        long generation = invalidations.get();
        storeLookups.increment();
        Optional<StoredKey> stored = db.read(dsl -> store.find(dsl, accessKey)).filter(s -> !s.key().revoked());
        if (stored.isEmpty()) {
            if (old != null) cache.asMap().remove(accessKey, old);
            return Optional.empty();
        }
        StoredKey s = stored.get();
        ResolvedKey fresh = old != null && old.hash.equals(s.passphraseHash()) ? old.refreshed(s.key(), now)
                : new ResolvedKey(s.key(), new Signature(cipher.decrypt(s.secretCipher())), s.passphraseSalt(),
                        s.passphraseHash(), now, null, passphraseHashes);
        // No I/O in here: the map's lock is held only to compare and store.
        cache.asMap().compute(accessKey, (k, current) -> invalidations.get() == generation ? fresh : current);
        return Optional.of(fresh);
    }

    /** After a reset or a seed that rolled back: nothing cached survives, and the index is read again. */
    public void invalidateAll() {
        invalidations.incrementAndGet();
        cache.invalidateAll();
        reloadIndexQuietly();
    }

    /** Database reads of a key since start (a key outside the index costs none): a metric, and what tests count. */
    public long storeLookups() { return storeLookups.sum(); }

    /** Slow PBKDF2 passphrase checks since start. */
    public long passphraseHashes() { return passphraseHashes.sum(); }

    /** Live keys in the index, or -1 while it is not loaded (every key then costs a query). */
    public int indexedKeys() { return index.size(); }

    private void reloadIndexQuietly() {
        try {
            index.reload(() -> db.read(store::liveAccessKeys));
        } catch (RuntimeException e) {
            log.warn("cannot load the API key index; every key costs a query until it loads: {}", e.getMessage());
        }
    }

    /** While the index is not loaded, one request in INDEX_RETRY_MS starts a load in the background. */
    private void retryIndexLoad() {
        long now = clock.millis();
        long due = nextIndexRetry.get();
        if (now >= due && nextIndexRetry.compareAndSet(due, now + INDEX_RETRY_MS)) {
            Thread.ofVirtual().name("tas-key-index").start(this::reloadIndexQuietly);
        }
    }

    /** A key with what verification needs. Never serialised, never logged. */
    public static final class ResolvedKey {
        private final ApiKey key;
        private final Signature signature;
        private final String salt;
        private final String hash;
        private final long loadedAt;
        private final LongAdder slowHashes;
        // The passphrase bytes once the slow hash has matched. The decrypted secret is in memory anyway,
        // so this adds no exposure, and a request then costs one constant-time compare.
        private volatile byte[] verified;

        ResolvedKey(ApiKey key, Signature signature, String salt, String hash, long loadedAt, byte[] verified, LongAdder slowHashes) {
            this.key = key;
            this.signature = signature;
            this.salt = salt;
            this.hash = hash;
            this.loadedAt = loadedAt;
            this.verified = verified;
            this.slowHashes = slowHashes;
        }

        boolean fresh(long now) { return loadedAt <= now && now < loadedAt + CACHE_TTL_MS; }

        ResolvedKey refreshed(ApiKey latest, long now) { return new ResolvedKey(latest, signature, salt, hash, now, verified, slowHashes); }

        public ApiKey key() { return key; }

        public Signature signature() { return signature; }

        /** Whether the passphrase is the one the slow check already matched: one constant-time compare. */
        public boolean passphraseVerified(String passphrase) {
            byte[] known = verified;
            return known != null && MessageDigest.isEqual(known, passphrase.getBytes(StandardCharsets.UTF_8));
        }

        /** The fast check, else the slow PBKDF2 one (counted); a match makes the fast one hold from then on. */
        public boolean passphraseMatches(String passphrase) {
            if (passphraseVerified(passphrase)) return true;
            byte[] given = passphrase.getBytes(StandardCharsets.UTF_8);
            slowHashes.increment();
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
