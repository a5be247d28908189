package io.tas.ledger;

import io.tas.admin.Provisioning;
import io.tas.admin.SeedFile.LedgerOp;
import io.tas.admin.SeedFile.SeedAccount;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
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
import java.util.List;

import static io.tas.ledger.Ledger.move;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * D224: a posting writes one journal row per movement, naming the counter account it moved against (no counter row), and
 * the repeat check of Ledger.postOnce still tells a retry of the same movements from other movements under the same ref.
 * On H2 and PostgreSQL.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class JournalRowsTest {
    @Parameter Databases.Kind kind;
    private TestServer server;
    private Ledger ledger;
    private long uid;
    private BalanceKey usdt, btc, spotUsdt;

    @BeforeEach
    void setUp() {
        server = ServerPool.next(kind);
        ledger = server.app.services().ledger();
        Provisioning provisioning = server.app.admin().provisioning();
        String name = "journal-" + System.nanoTime();
        uid = provisioning.createAccount(new SeedAccount(null, name, null, null, null, null, null, null, null, null, null,
                null, null, null, null, null), null).uid();
        server.app.admin().money().deposit(new LedgerOp(uid, "unified", "USDT", new BigDecimal("100"), name));
        usdt = new BalanceKey(uid, AccountType.unified, "USDT");
        btc = new BalanceKey(uid, AccountType.unified, "BTC");
        spotUsdt = new BalanceKey(uid, AccountType.spot, "USDT");
    }

    /** The transaction's journal rows in order: seq uid account field coin amount counter. */
    private List<String> rows(long txId) {
        return server.app.database().read(dsl -> dsl.fetch("select seq, uid, account_type, field, coin, amount, counter from journal where tx_id = ? order by seq", txId)
                .map(r -> r.get(0) + " " + r.get(1) + " " + r.get(2) + " " + r.get(3) + " " + r.get(4) + " "
                        + r.get(5, BigDecimal.class).stripTrailingZeros().toPlainString() + " " + r.get(6)));
    }

    private long count(String where, Object... bindings) {
        return server.app.database().read(dsl -> ((Number) dsl.fetchValue("select count(*) from journal where " + where, bindings)).longValue());
    }

    @Test
    void aTradeAndATransferWriteOneRowPerMovementNamingItsCounter() {
        long freeze = ledger.post("order_freeze", null, uid, List.of(move(usdt, Field.available, new BigDecimal("-40"), Counter.order),
                move(usdt, Field.frozen, new BigDecimal("40"), Counter.order)));
        long fill = ledger.post("spot_fill", null, uid, List.of(move(usdt, Field.frozen, new BigDecimal("-38.5"), Counter.trade),
                move(btc, Field.available, new BigDecimal("0.0004"), Counter.trade),
                move(btc, Field.available, new BigDecimal("-0.0000004"), Counter.fee)));
        long transfer = ledger.post("transfer", null, uid, List.of(move(usdt, Field.available, new BigDecimal("-10"), Counter.transfer),
                move(spotUsdt, Field.available, new BigDecimal("10"), Counter.transfer)));

        assertThat(rows(freeze)).containsExactly(
                "0 " + uid + " unified available USDT -40 order",
                "1 " + uid + " unified frozen USDT 40 order");
        assertThat(rows(fill)).containsExactly(
                "0 " + uid + " unified frozen USDT -38.5 trade",
                "1 " + uid + " unified available BTC 0.0004 trade",
                "2 " + uid + " unified available BTC -0.0000004 fee");
        assertThat(rows(transfer)).containsExactly(
                "0 " + uid + " unified available USDT -10 transfer",
                "1 " + uid + " spot available USDT 10 transfer");
        assertThat(count("uid is null")).as("counter rows").isZero();
        // The console's view of the account: newest first, each row with its counter.
        assertThat(ledger.journal(uid, 3)).extracting(Ledger.JournalLine::field, Ledger.JournalLine::counter).containsExactly(
                org.assertj.core.groups.Tuple.tuple("available", "transfer"), org.assertj.core.groups.Tuple.tuple("available", "transfer"),
                org.assertj.core.groups.Tuple.tuple("available", "fee"));
        Balance left = ledger.balance(usdt); // 100 deposited, 40 frozen, 38.5 paid from the freeze, 10 to spot
        assertThat(left.available()).isEqualByComparingTo("50");
        assertThat(left.frozen()).isEqualByComparingTo("1.5");
        assertThat(ledger.check().ok()).as(ledger.check().toString()).isTrue();
    }

    @Test
    void aRetryOfTheSameMovementsIsARepeatAndOtherMovementsUnderTheRefAreRefused() {
        String ref = "journal-ref-" + System.nanoTime();
        List<Movement> first = List.of(move(usdt, Field.available, new BigDecimal("-1"), Counter.fee),
                move(usdt, Field.frozen, new BigDecimal("1"), Counter.order));
        Ledger.Posted posted = ledger.postOnce("adjustment", ref, uid, first);
        assertThat(posted.repeated()).isFalse();
        long rowsAfter = count("uid = ?", uid);
        Balance after = ledger.balance(usdt);

        // The same movements, amounts written otherwise and listed in another order: a repeat of the first transaction.
        Ledger.Posted again = ledger.postOnce("adjustment", ref, uid, List.of(move(usdt, Field.frozen, new BigDecimal("1.000"), Counter.order),
                move(usdt, Field.available, new BigDecimal("-1.0"), Counter.fee)));
        assertThat(again).isEqualTo(new Ledger.Posted(posted.txId(), true));

        // Other movements under the ref: another amount, another counter, or the two counters swapped between the fields
        // (the same rows and the same counter names, paired otherwise).
        for (List<Movement> other : List.of(
                List.of(move(usdt, Field.available, new BigDecimal("-2"), Counter.fee), move(usdt, Field.frozen, new BigDecimal("2"), Counter.order)),
                List.of(move(usdt, Field.available, new BigDecimal("-1"), Counter.adjustment), move(usdt, Field.frozen, new BigDecimal("1"), Counter.order)),
                List.of(move(usdt, Field.available, new BigDecimal("-1"), Counter.order), move(usdt, Field.frozen, new BigDecimal("1"), Counter.fee)))) {
            assertThatThrownBy(() -> ledger.postOnce("adjustment", ref, uid, other)).as(other.toString())
                    .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.error()).isEqualTo(ErrorCode.PARAM_VERIFICATION_FAILED))
                    .hasMessageContaining("ref " + ref + " was already used with different parameters");
        }
        assertThat(count("uid = ?", uid)).isEqualTo(rowsAfter);
        assertThat(ledger.balance(usdt)).isEqualTo(after);
        assertThat(rows(posted.txId())).containsExactly("0 " + uid + " unified available USDT -1 fee", "1 " + uid + " unified frozen USDT 1 order");
    }
}
