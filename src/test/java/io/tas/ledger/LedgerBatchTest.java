package io.tas.ledger;

import io.tas.admin.Provisioning;
import io.tas.admin.SeedFile.LedgerOp;
import io.tas.admin.SeedFile.SeedAccount;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.Ledger.Change;
import io.tas.ledger.Ledger.Outcome;
import io.tas.ledger.LedgerTypes.*;
import io.tas.support.Databases;
import io.tas.support.ServerPool;
import io.tas.support.TestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.tas.ledger.Ledger.move;
import static org.assertj.core.api.Assertions.assertThat;

/** Several ledger changes in one database transaction (the group commit's unit), on H2 and PostgreSQL. */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class LedgerBatchTest {
    @Parameter Databases.Kind kind;
    private Provisioning provisioning;
    private io.tas.admin.MoneyAdmin money;
    private Ledger ledger;

    @BeforeEach
    void setUp() {
        TestServer server = ServerPool.next(kind);
        provisioning = server.app.admin().provisioning();
        money = server.app.admin().money();
        ledger = server.app.services().ledger();
    }

    private BalanceKey fundedUsdt(String amount) {
        String name = "batch-" + System.nanoTime();
        long uid = provisioning.createAccount(new SeedAccount(null, name, null, null, null, null, null, null, null, null, null,
                null, null, null, null, null), null).uid();
        money.deposit(new LedgerOp(uid, "unified", "USDT", new BigDecimal(amount), name));
        return new BalanceKey(uid, AccountType.unified, "USDT");
    }

    private static Change<Long> debit(BalanceKey key, String amount) {
        return new Change<>(List.of(key), rows -> rows.post("adjustment", null, key.uid(),
                List.of(move(key, Field.available, new BigDecimal(amount).negate(), Counter.adjustment))));
    }

    @Test
    void eachChangeSeesTheOnesBeforeItAndARejectedOneWritesNothing() {
        BalanceKey a = fundedUsdt("10");
        BalanceKey b = fundedUsdt("3");
        List<BigDecimal> seen = new ArrayList<>();
        Change<Long> postsThenFails = new Change<>(List.of(a), rows -> {
            rows.post("adjustment", null, a.uid(), List.of(move(a, Field.available, new BigDecimal("-1"), Counter.adjustment)));
            seen.add(rows.get(a).available());
            throw new ApiException(ErrorCode.PARAM_VERIFICATION_FAILED, "changed its mind");
        });
        Change<BigDecimal> reads = new Change<>(List.of(a), rows -> rows.get(a).available());

        List<Outcome<?>> out = ledger.runTogether(List.of(debit(a, "6"), debit(b, "1"), debit(a, "6"), postsThenFails, reads));

        assertThat(out.get(0).failure()).isNull();
        assertThat(out.get(1).failure()).isNull();
        assertThat(((ApiException) out.get(2).failure()).error()).isEqualTo(ErrorCode.INSUFFICIENT_BALANCE); // 4 left after the first
        assertThat(seen).hasSize(1).allSatisfy(v -> assertThat(v).isEqualByComparingTo("3")); // saw its own post...
        assertThat(((ApiException) out.get(3).failure()).error()).isEqualTo(ErrorCode.PARAM_VERIFICATION_FAILED);
        assertThat((BigDecimal) out.get(4).value()).isEqualByComparingTo("4"); // ...which the next change does not
        assertThat(ledger.balance(a).available()).isEqualByComparingTo("4");
        assertThat(ledger.balance(b).available()).isEqualByComparingTo("2");
        assertThat(ledger.check().ok()).as(ledger.check().toString()).isTrue();
    }

    @Test
    void aBatchCreatesTheRowsItNeedsThatDoNotExistYet() {
        BalanceKey a = fundedUsdt("10");
        BalanceKey fresh = new BalanceKey(a.uid(), AccountType.unified, "NEW" + (System.nanoTime() % 1_000_000));
        Change<Long> move = new Change<>(List.of(a, fresh), rows -> rows.post("adjustment", null, a.uid(), List.of(
                move(a, Field.available, new BigDecimal("-4"), Counter.adjustment),
                move(fresh, Field.available, new BigDecimal("4"), Counter.adjustment))));

        List<Outcome<?>> out = ledger.runTogether(List.of(debit(a, "1"), move));

        assertThat(out).allSatisfy(o -> assertThat(o.failure()).isNull());
        assertThat(ledger.balance(a).available()).isEqualByComparingTo("5");
        assertThat(ledger.balance(fresh).available()).isEqualByComparingTo("4");
        assertThat(ledger.check().ok()).isTrue();
    }

    @Test
    void concurrentChangesThroughTheGroupCommitNeverOverdraw() throws Exception {
        BalanceKey a = fundedUsdt("50");
        ExecutorService pool = Executors.newFixedThreadPool(40);
        List<Future<Boolean>> results = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            results.add(pool.submit(() -> {
                try {
                    ledger.submit(List.of(a), debit(a, "2").work());
                    return true;
                } catch (ApiException e) {
                    assertThat(e.error()).isEqualTo(ErrorCode.INSUFFICIENT_BALANCE);
                    return false;
                }
            }));
        }
        int ok = 0;
        for (Future<Boolean> f : results) if (f.get(60, TimeUnit.SECONDS)) ok++;
        pool.shutdown();
        assertThat(ok).isEqualTo(25);
        assertThat(ledger.balance(a).available()).isEqualByComparingTo("0");
        assertThat(ledger.check().ok()).isTrue();
    }

    @Test
    void aChangeTheDatabaseRejectsDoesNotTakeTheOthersWithIt() throws Exception {
        BalanceKey a = fundedUsdt("10");
        BalanceKey ghost = new BalanceKey(1L, AccountType.unified, "USDT"); // no such account: its row cannot exist
        ExecutorService pool = Executors.newFixedThreadPool(21);
        List<Future<Object>> good = new ArrayList<>();
        for (int i = 0; i < 20; i++) good.add(pool.submit(() -> ledger.submit(List.of(a), debit(a, "0.5").work())));
        Future<Object> bad = pool.submit(() -> ledger.submit(List.of(ghost), rows -> rows.get(ghost)));
        for (Future<Object> f : good) assertThat(f.get(60, TimeUnit.SECONDS)).isNotNull();
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> bad.get(60, TimeUnit.SECONDS))).isNotNull();
        pool.shutdown();
        assertThat(ledger.balance(a).available()).isEqualByComparingTo("0");
        assertThat(ledger.check().ok()).isTrue();
    }
}
