package io.tas.auth;

import io.tas.account.AccountEnums.AccountKind;
import io.tas.account.AccountEnums.AccountStatus;
import io.tas.account.AccountEnums.AccountType;
import io.tas.account.AccountService;
import io.tas.account.NewAccount;
import io.tas.auth.ApiKey.PermType;
import io.tas.auth.ApiKeyService.ResolvedKey;
import io.tas.config.Config;
import io.tas.store.ChangeFeed;
import io.tas.store.Database;
import io.tas.store.IdGenerator;
import io.tas.support.MutableClock;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 24 item 10: ApiKeyService.resolve reads the database outside any lock. The store here holds one key's read
 * until the test lets it go, so what waits behind it is visible without any timing.
 */
class ApiKeyResolveTest {
    // Equal String hash codes ("Aa" and "BB"): one bin of the cache's map, whatever its size.
    static final String SLOW = "bg_unknown_Aa";
    static final String OTHER = "bg_unknown_BB";

    /** The SQL of the service, but the read of `held` waits for `release` (after reading, so it may be stale). */
    static final class HeldStore extends ApiKeyStore {
        volatile String held;
        volatile boolean indexFails;
        final CountDownLatch reading = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        Optional<StoredKey> find(DSLContext dsl, String accessKey) {
            Optional<StoredKey> row = super.find(dsl, accessKey);
            if (accessKey.equals(held)) {
                reading.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
            return row;
        }

        /** The index lists the two unknown keys (as after creates that rolled back), so each costs a read. */
        @Override
        List<String> liveAccessKeys(DSLContext dsl) {
            if (indexFails) throw new IllegalStateException("index not readable (test)");
            List<String> live = new java.util.ArrayList<>(super.liveAccessKeys(dsl));
            live.addAll(List.of(SLOW, OTHER));
            return live;
        }
    }

    final MutableClock clock = new MutableClock(1_700_000_000_000L);
    final HeldStore store = new HeldStore();
    final ExecutorService pool = Executors.newFixedThreadPool(3);
    Database db;
    ApiKeyService keys;

    @BeforeEach
    void setUp() {
        Config config = Config.fromEnv(Map.of()).withDb("jdbc:h2:mem:resolve-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "");
        db = Database.open(config);
        ChangeFeed changes = ChangeFeed.open(db, config.dbUrl(), config.dbUser(), config.dbPassword());
        AccountService accounts = new AccountService(db, clock, new IdGenerator(clock, 0), true, changes);
        accounts.create(new NewAccount(1L, null, "resolve", AccountType.normal, AccountKind.UNIFIED, AccountStatus.normal,
                "", "", "", "", false, 0L, null));
        keys = new ApiKeyService(db, clock, new SecretCipher(config.masterKey()), accounts, changes, store);
    }

    @AfterEach
    void tearDown() {
        store.release.countDown();
        pool.shutdownNow();
        db.close();
    }

    @Test
    void aSlowReadOfOneKeyHoldsUpNoOtherKey() throws Exception {
        assertThat(SLOW.hashCode()).isEqualTo(OTHER.hashCode());
        store.held = SLOW;
        Future<Optional<ResolvedKey>> slow = pool.submit(() -> keys.resolve(SLOW));
        store.reading.await(); // the read of SLOW is under way and stays so until released
        // Before, the read ran inside the cache map's compute, whose lock covers every key of the bin: OTHER waited.
        Future<Optional<ResolvedKey>> other = pool.submit(() -> keys.resolve(OTHER));
        assertThat(other.get(20, TimeUnit.SECONDS)).as("answered while SLOW's read is held").isEmpty();
        assertThat(slow.isDone()).isFalse();
        store.release.countDown();
        assertThat(slow.get()).isEmpty();
    }

    @Test
    void aKeyRevokedWhileItWasReadIsNotCached() throws Exception {
        String key = keys.create(new NewApiKey(1L, "resolve", PermType.READ_AND_WRITE, EnumSet.of(Permission.UTA_MGT), List.of(),
                null, null, "Resolve1")).key().accessKey();
        // With no index, every key is read from the database, and the cache alone stands between a revoke and its key.
        store.indexFails = true;
        keys.invalidateAll();
        assertThat(keys.indexedKeys()).isEqualTo(-1);
        store.held = key;
        Future<Optional<ResolvedKey>> inFlight = pool.submit(() -> keys.resolve(key));
        store.reading.await(); // it has read the key live
        assertThat(keys.revoke(key)).isTrue();
        store.release.countDown();
        assertThat(inFlight.get()).as("the request that read before the revoke").isPresent();
        assertThat(keys.resolve(key)).as("any request after the revoke").isEmpty();
    }
}
