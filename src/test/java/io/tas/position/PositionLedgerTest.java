package io.tas.position;

import io.tas.account.AccountEnums.Category;
import io.tas.account.AccountEnums.MarginMode;
import io.tas.admin.Provisioning;
import io.tas.admin.SeedFile.LedgerOp;
import io.tas.admin.SeedFile.SeedAccount;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.ledger.Ledger;
import io.tas.ledger.LedgerTypes.AccountType;
import io.tas.ledger.LedgerTypes.Balance;
import io.tas.ledger.LedgerTypes.BalanceKey;
import io.tas.loan.LoanService;
import io.tas.position.Position.HoldSide;
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
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Positions against the ledger (issue 7, item 6): a position can always be closed, a loss beyond the balance
 * becomes debt on a unified account; what is stored is exactly what the service computed; two concurrent opens
 * of one side cannot both succeed. On H2 and PostgreSQL.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class PositionLedgerTest {
    private static final AtomicInteger NAMES = new AtomicInteger();
    @Parameter Databases.Kind kind;
    private Provisioning provisioning;
    private io.tas.admin.MoneyAdmin money;
    private PositionService positions;
    private Ledger ledger;
    private LoanService loans;

    @BeforeEach
    void setUp() {
        TestServer server = ServerPool.next(kind);
        provisioning = server.app.admin().provisioning();
        money = server.app.admin().money();
        positions = server.app.services().positions();
        ledger = server.app.services().ledger();
        loans = server.app.services().loans();
    }

    private long account(String mode, String usdt) {
        String name = "pos-" + kind + "-" + NAMES.incrementAndGet();
        long uid = provisioning.createAccount(new SeedAccount(null, name, io.tas.account.AccountEnums.AccountKind.valueOf(mode),
                null, null, null, null, null, null, null, null, null, null, null, null, null), null).uid();
        money.deposit(new LedgerOp(uid, "unified", "USDT", new BigDecimal(usdt), name));
        return uid;
    }

    private Position openLong(long uid, String size, String price, String leverage) {
        return positions.open(new PositionService.Open(uid, Category.USDT_FUTURES, "BTCUSDT", HoldSide.long_, MarginMode.isolated,
                new BigDecimal(leverage), new BigDecimal(size), new BigDecimal(price), BigDecimal.ZERO, null));
    }

    private Balance usdt(long uid) { return ledger.balance(new BalanceKey(uid, AccountType.unified, "USDT")); }

    @Test
    void aLossBeyondTheAvailableBalanceBecomesDebtOnAUnifiedAccount() {
        long uid = account("UNIFIED", "1000");
        Position p = openLong(uid, "1", "95000", "100"); // margin 950, available 50
        assertThat(usdt(uid).available()).isEqualByComparingTo("50");

        Position closed = positions.close(p.id(), new BigDecimal("90000"), new BigDecimal("1.5"), null);

        // 50 available + 950 margin back - 5000 loss - 1.5 fee = -4001.5: borrowed, so available ends at 0.
        assertThat(closed.status()).isEqualTo(Position.Status.closed);
        assertThat(closed.achievedProfits()).isEqualByComparingTo("-5000");
        Balance b = usdt(uid);
        assertThat(b.available()).isEqualByComparingTo("0");
        assertThat(b.frozen()).isEqualByComparingTo("0");
        assertThat(b.debt()).isEqualByComparingTo("4001.5");
        LoanService.LoanData loan = loans.loanData(uid);
        assertThat(loan.currentLoansUsd()).isEqualByComparingTo("4001.5");
        assertThat(loan.debts()).extracting(LoanService.Debt::coin).containsExactly("USDT");
        assertThat(ledger.check().ok()).as(ledger.check().toString()).isTrue();
    }

    @Test
    void aClassicAccountsShortfallIsCoveredByTheInsuranceCounterAccount() {
        long uid = account("CLASSIC", "1000");
        Position p = openLong(uid, "1", "95000", "100");
        positions.fill(new PositionService.Fill(p.id(), new BigDecimal("-0.5"), new BigDecimal("80000"), BigDecimal.ZERO, null));
        // 50 + 475 released - 7500 loss: 6975 short, covered; a classic account cannot borrow, so no debt.
        Balance b = usdt(uid);
        assertThat(b.available()).isEqualByComparingTo("0");
        assertThat(b.frozen()).isEqualByComparingTo("475");
        assertThat(b.debt()).isEqualByComparingTo("0");
        assertThat(ledger.check().ok()).as(ledger.check().toString()).isTrue();
    }

    @Test
    void aProfitableOrSmallLossCloseBorrowsNothing() {
        long uid = account("UNIFIED", "1000");
        Position p = openLong(uid, "1", "95000", "100");
        positions.close(p.id(), new BigDecimal("94990"), BigDecimal.ZERO, null); // -10
        assertThat(usdt(uid).available()).isEqualByComparingTo("990");
        assertThat(usdt(uid).debt()).isEqualByComparingTo("0");
    }

    @Test
    void whatIsStoredIsExactlyWhatTheServiceComputed() {
        long uid = account("UNIFIED", "1000");
        Position p = openLong(uid, "1", "950", "1");
        // Half closed at a price whose close value has a 19th decimal of 5: HALF_UP and HALF_EVEN disagree there.
        Position after = positions.fill(new PositionService.Fill(p.id(), new BigDecimal("-0.5"), new BigDecimal("950.000000000000000001"), BigDecimal.ZERO, null));
        Position stored = positions.open(uid).getFirst();
        assertThat(stored.closeValue()).isEqualByComparingTo(after.closeValue());
        assertThat(after.closeValue()).isEqualByComparingTo("475"); // 475.0000000000000000005 to 18 decimals, half-even
        assertThat(stored.size()).isEqualByComparingTo(after.size());
        assertThat(stored.marginSize()).isEqualByComparingTo(after.marginSize());
        assertThat(stored.openPriceAvg()).isEqualByComparingTo(after.openPriceAvg());
    }

    @Test
    void inputsTheLedgerCannotStoreAreRefusedBeforeAnySql() {
        long uid = account("UNIFIED", "1000");
        ApiException e = org.junit.jupiter.api.Assertions.assertThrows(ApiException.class, () -> openLong(uid, "0.0000000000000000001", "95000", "10"));
        assertThat(e.error()).isEqualTo(ErrorCode.PARAM_VERIFICATION_EXCEPTION);
        assertThat(positions.open(uid)).isEmpty();
    }

    @Test
    void aFigureTooLargeForItsColumnIsRefusedAndChangesNothing() {
        long uid = account("UNIFIED", "90000000000000000000"); // 9e19: the inputs below each fit the ledger
        Position p = openLong(uid, "10000000000", "10000000000", "100"); // margin 1e18
        Balance before = usdt(uid);
        // Closing at 1e10 would make the close value 1e20, one digit more than numeric(38, 18) holds.
        ApiException e = org.junit.jupiter.api.Assertions.assertThrows(ApiException.class,
                () -> positions.close(p.id(), new BigDecimal("10000000000"), BigDecimal.ZERO, null));
        assertThat(e.error()).isEqualTo(ErrorCode.PARAM_VERIFICATION_EXCEPTION);
        assertThat(e.getMessage()).contains("closeValue would exceed 20 integer digits");
        assertThat(usdt(uid)).isEqualTo(before);
        assertThat(positions.open(uid)).hasSize(1);
        assertThat(ledger.check().ok()).isTrue();
    }

    @Test
    void twoConcurrentOpensOfOneSideCreateOnePosition() throws Exception {
        long uid = account("UNIFIED", "100000");
        int threads = 16;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Boolean>> results = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            results.add(pool.submit(() -> {
                start.await();
                try {
                    openLong(uid, "0.01", "95000", "10");
                    return true;
                } catch (ApiException e) {
                    assertThat(e.error()).isEqualTo(ErrorCode.PARAM_VERIFICATION_FAILED);
                    return false;
                }
            }));
        }
        start.countDown();
        int opened = 0;
        for (Future<Boolean> f : results) if (f.get(60, TimeUnit.SECONDS)) opened++;
        pool.shutdown();
        assertThat(opened).isEqualTo(1);
        assertThat(positions.open(uid)).hasSize(1);
        assertThat(usdt(uid).frozen()).isEqualByComparingTo("95"); // one position's margin
        assertThat(ledger.check().ok()).isTrue();
    }
}
