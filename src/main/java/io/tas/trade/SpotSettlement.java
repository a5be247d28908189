package io.tas.trade;

import io.tas.ledger.Ledger;
import io.tas.ledger.LedgerTypes.AccountType;
import io.tas.ledger.LedgerTypes.BalanceKey;
import io.tas.ledger.LedgerTypes.Counter;
import io.tas.ledger.LedgerTypes.Field;
import io.tas.ledger.LedgerTypes.Movement;
import io.tas.market.Instrument;
import io.tas.spot.SpotFill;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;

import static io.tas.ledger.Ledger.move;

/**
 * The money of one side of a spot fill, decided against locked balance rows without SQL (it runs inside a ledger
 * change): release what the fill used of the order's freeze, exchange the coins through the trade counter, charge the
 * fee in the coin received, or in the platform token at its USDT price with the token discount when the account has
 * deduction on and enough of it (D72, D83; Reality orders are engine orders, D223).
 */
final class SpotSettlement {
    static final BigDecimal TOKEN_FEE_DISCOUNT = new BigDecimal("0.8");
    static final int TOKEN_FEE_SCALE = 12;

    private SpotSettlement() {}

    /** The fee terms of one side: its rate, and the token prices deduction needs (null when one is missing). */
    record Terms(BigDecimal rate, boolean deduct, String token, BigDecimal tokenPrice, BigDecimal quotePrice) {}

    /** The order after the fill and the fill as the fills rows show it. */
    record Settled(TradeOrder order, SpotFill fill) {}

    static Settled settle(TradeOrder o, Instrument inst, BigDecimal price, BigDecimal size, String scope, Terms terms,
                          Ledger.Locked rows, List<Movement> moves, long tradeId, long now) {
        BigDecimal amount = Ledger.plain(price.multiply(size));
        BalanceKey base = o.key(inst.baseCoin());
        BalanceKey quote = o.key(inst.quoteCoin());
        // What this fill used of the freeze: a limit buy froze its price x qty, a market buy its quote budget, a sell its size.
        BigDecimal used = o.isBuy() ? (o.isMarket() ? amount : o.price().multiply(size)) : size;
        BigDecimal release = used.min(o.frozen());
        BalanceKey paid = o.isBuy() ? quote : base;
        BigDecimal spent = o.isBuy() ? amount : size;
        // D177: the fill is paid from the freeze itself, not released to available and taken back (four journal rows
        // fewer per resting fill); only what the freeze held beyond the fill (a buy below its limit) goes back, and what
        // the freeze lacks (an order that froze nothing) comes from available. The balances end as before.
        BigDecimal fromFrozen = release.min(spent);
        BigDecimal back = release.subtract(fromFrozen);
        if (fromFrozen.signum() > 0) moves.add(move(paid, Field.frozen, fromFrozen.negate(), Counter.trade));
        if (back.signum() > 0) {
            moves.add(move(paid, Field.frozen, back.negate(), Counter.order));
            moves.add(move(paid, Field.available, back, Counter.order));
        }
        if (spent.compareTo(fromFrozen) > 0) moves.add(move(paid, Field.available, fromFrozen.subtract(spent), Counter.trade));
        moves.add(move(o.isBuy() ? base : quote, Field.available, o.isBuy() ? size : amount, Counter.trade));

        Fee fee = fee(o.uid(), o.wallet(), inst, o.isBuy(), amount, size, terms, rows, moves);
        if (fee.amount().signum() != 0) moves.add(move(fee.key(), Field.available, fee.amount().negate(), Counter.fee));
        TradeOrder next = o.next(o.frozen().subtract(release), o.cumExecQty().add(size), o.cumExecValue().add(amount),
                o.fee().add(fee.amount()), fee.coin(), TradeOrder.PARTIALLY_FILLED, null, now);
        SpotFill fill = new SpotFill(o.uid(), tradeId, o.orderId(), o.symbol(), o.orderType(), o.side(), price, size, amount, scope,
                fee.deduction(), fee.coin(), fee.deducted().negate(), fee.amount().negate(), now, now, o.category().wire(), BigDecimal.ZERO);
        return new Settled(next, fill);
    }

    /** The fee of one side of a spot fill: where it is taken from, how much, and whether it was paid in the token. */
    record Fee(BalanceKey key, String coin, BigDecimal amount, String deduction, BigDecimal deducted) {}

    /**
     * The fee of one side of a spot fill (D72, D83), on the balances of the order's wallet (a classic account's spot
     * orders: its spot balances, D171): rate x the coin received (the base size for a buy, the quote amount for a sell),
     * taken from it; with deduction on, in the platform token at its USDT price with the 20% discount, rounded down to 12
     * decimals, when the token is priced, is neither coin of the pair, and its balance, as this ledger change leaves it so
     * far (`pending`), covers it.
     */
    static Fee fee(long uid, AccountType wallet, Instrument inst, boolean buy, BigDecimal amount, BigDecimal size, Terms terms,
                   Ledger.Locked rows, List<Movement> pending) {
        BalanceKey base = new BalanceKey(uid, wallet, inst.baseCoin());
        BalanceKey quote = new BalanceKey(uid, wallet, inst.quoteCoin());
        BigDecimal fee = Ledger.plain((buy ? size : amount).multiply(terms.rate()));
        BalanceKey tokenKey = new BalanceKey(uid, wallet, terms.token());
        if (terms.deduct() && !tokenKey.equals(base) && !tokenKey.equals(quote) && terms.tokenPrice() != null && terms.quotePrice() != null) {
            BigDecimal tokenFee = amount.multiply(terms.quotePrice()).multiply(terms.rate()).multiply(TOKEN_FEE_DISCOUNT)
                    .divide(terms.tokenPrice(), MathContext.DECIMAL128).setScale(TOKEN_FEE_SCALE, RoundingMode.DOWN).stripTrailingZeros();
            BigDecimal tokenLeft = rows.get(tokenKey).available();
            for (Movement m : pending) if (m.key().equals(tokenKey) && m.field() == Field.available) tokenLeft = tokenLeft.add(m.amount());
            // A token fee that rounds to 0 at 12 decimals is no deduction: the fee stays in the received coin.
            if (tokenFee.signum() > 0 && tokenLeft.compareTo(tokenFee) >= 0) return new Fee(tokenKey, terms.token(), tokenFee, "yes", tokenFee);
        }
        return new Fee(buy ? base : quote, buy ? inst.baseCoin() : inst.quoteCoin(), fee, "no", BigDecimal.ZERO);
    }

    /** The balance rows a spot order's fills touch: base, quote and, with deduction on, the platform token. */
    static List<BalanceKey> keys(TradeOrder o, Instrument inst, String token, boolean deduct) {
        return deduct ? List.of(o.key(inst.baseCoin()), o.key(inst.quoteCoin()), o.key(token))
                : List.of(o.key(inst.baseCoin()), o.key(inst.quoteCoin()));
    }
}
