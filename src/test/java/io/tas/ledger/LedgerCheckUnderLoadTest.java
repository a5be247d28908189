package io.tas.ledger;

import io.tas.App;
import io.tas.admin.SeedFile;
import io.tas.config.Config;
import io.tas.ledger.LedgerTypes.AccountType;
import io.tas.ledger.LedgerTypes.BalanceKey;
import io.tas.ledger.LedgerTypes.Counter;
import io.tas.ledger.LedgerTypes.Field;
import io.tas.support.Databases;
import io.tas.support.MutableClock;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tas.ledger.Ledger.move;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ledger check (GET /admin/v1/ledger/check) is an operator's audit, so it must not raise a false alarm while money
 * moves: each of its three checks is one statement, which reads one consistent snapshot of the balances and the journal
 * on both databases. Writers credit and debit two accounts while the check runs over and over; every check is clean.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class LedgerCheckUnderLoadTest {
    private static final BalanceKey MAIN_USDT = new BalanceKey(1000000001L, AccountType.unified, "USDT");
    private static final BalanceKey SUB_USDT = new BalanceKey(1000000002L, AccountType.unified, "USDT");
    private static final int WRITERS = 8, POSTS_PER_WRITER = 150;
    @Parameter Databases.Kind kind;

    @Test
    void everyCheckTakenWhileMoneyMovesIsClean() throws Exception {
        Config config = Config.fromEnv(Map.of()).withPort(0).withAdminPort(0).withAdminToken(TestServer.ADMIN_TOKEN)
                .withSandbox(true).withRateLimits(false);
        SeedFile demo = SeedFile.load("demo");
        try (Databases.TestDb db = Databases.create(kind);
             App app = App.start(config.withDb(db.url(), db.user(), ""), new MutableClock(System.currentTimeMillis()), a -> a.seeds().apply(demo))) {
            Ledger ledger = app.services().ledger();
            BigDecimal mainBefore = ledger.balance(MAIN_USDT).available(), subBefore = ledger.balance(SUB_USDT).available();
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
            List<Future<?>> writers = new ArrayList<>();
            AtomicInteger newPosts = new AtomicInteger();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                writers.add(pool.submit(() -> {
                    for (int i = 0; i < POSTS_PER_WRITER; i++) {
                        // Credits and debits in turn, half the writers on each account: balance and journal change in each transaction.
                        BalanceKey key = writer % 2 == 0 ? MAIN_USDT : SUB_USDT;
                        BigDecimal amount = i % 2 == 0 ? new BigDecimal("1.5") : new BigDecimal("-1.5");
                        Ledger.Posted posted = ledger.postOnce("adjustment", "load-" + writer + "-" + i, key.uid(),
                                List.of(move(key, Field.available, amount, Counter.adjustment)));
                        if (!posted.repeated()) newPosts.incrementAndGet();
                    }
                    return null;
                }));
            }
            pool.shutdown();
            List<Ledger.Check> whileWriting = new ArrayList<>();
            while (!pool.isTerminated()) {
                Ledger.Check check = ledger.check();
                if (!pool.isTerminated()) whileWriting.add(check);
            }
            for (Future<?> f : writers) f.get(60, TimeUnit.SECONDS);

            assertThat(whileWriting).as("checks that overlapped the writers").hasSizeGreaterThanOrEqualTo(10);
            assertThat(whileWriting).allSatisfy(c -> assertThat(c.ok()).as(c.toString()).isTrue());
            assertThat(ledger.check().ok()).isTrue();
            // The load really moved money: every post was new, and credits and debits net out to where each balance began.
            assertThat(newPosts.get()).isEqualTo(WRITERS * POSTS_PER_WRITER);
            assertThat(ledger.balance(MAIN_USDT).available()).isEqualByComparingTo(mainBefore);
            assertThat(ledger.balance(SUB_USDT).available()).isEqualByComparingTo(subBefore);
            System.out.println("ledger check under load " + kind + ": " + whileWriting.size() + " checks during "
                    + WRITERS * POSTS_PER_WRITER + " posts, 0 false alarms");
        }
    }
}
