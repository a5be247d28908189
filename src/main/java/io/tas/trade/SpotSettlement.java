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
 * deduction on and enough of it (the rule Reality orders follow, D72).
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
        BigDecimal amount = Ledger.scaled(price.multiply(size)).stripTrailingZeros();
        BalanceKey base = key(o.uid(), inst.baseCoin());
        BalanceKey quote = key(o.uid(), inst.quoteCoin());
        // What this fill used of the freeze: a limit buy froze its price x qty, a market buy its quote budget, a sell its size.
        BigDecimal used = o.isBuy() ? (o.isMarket() ? amount : o.price().multiply(size)) : size;
        BigDecimal release = used.min(o.frozen());
        BalanceKey frozenKey = o.isBuy() ? quote : base;
        if (release.signum() > 0) {
            moves.add(move(frozenKey, Field.frozen, release.negate(), Counter.order));
            moves.add(move(frozenKey, Field.available, release, Counter.order));
        }
        moves.add(move(o.isBuy() ? quote : base, Field.available, (o.isBuy() ? amount : size).negate(), Counter.trade));
        moves.add(move(o.isBuy() ? base : quote, Field.available, o.isBuy() ? size : amount, Counter.trade));

        String feeCoin = o.isBuy() ? inst.baseCoin() : inst.quoteCoin();
        BigDecimal fee = Ledger.scaled((o.isBuy() ? size : amount).multiply(terms.rate())).stripTrailingZeros();
        BalanceKey feeKey = o.isBuy() ? base : quote;
        String deduction = "no";
        BigDecimal deducted = BigDecimal.ZERO;
        BalanceKey tokenKey = key(o.uid(), terms.token());
        if (terms.deduct() && !tokenKey.equals(base) && !tokenKey.equals(quote) && terms.tokenPrice() != null && terms.quotePrice() != null) {
            BigDecimal tokenFee = amount.multiply(terms.quotePrice()).multiply(terms.rate()).multiply(TOKEN_FEE_DISCOUNT)
                    .divide(terms.tokenPrice(), MathContext.DECIMAL128).setScale(TOKEN_FEE_SCALE, RoundingMode.DOWN).stripTrailingZeros();
            // The token's balance is read as this batch leaves it: an earlier fill's deduction counts.
            BigDecimal tokenLeft = rows.get(tokenKey).available();
            for (Movement m : moves) if (m.key().equals(tokenKey) && m.field() == Field.available) tokenLeft = tokenLeft.add(m.amount());
            if (tokenFee.signum() > 0 && tokenLeft.compareTo(tokenFee) >= 0) {
                deduction = "yes";
                feeCoin = terms.token();
                fee = tokenFee;
                deducted = tokenFee;
                feeKey = tokenKey;
            }
        }
        if (fee.signum() != 0) moves.add(move(feeKey, Field.available, fee.negate(), Counter.fee));
        TradeOrder next = o.next(o.frozen().subtract(release), o.cumExecQty().add(size), o.cumExecValue().add(amount),
                o.fee().add(fee), feeCoin, TradeOrder.PARTIALLY_FILLED, null, now);
        SpotFill fill = new SpotFill(o.uid(), tradeId, o.orderId(), o.symbol(), o.orderType(), o.side(), price, size, amount, scope,
                deduction, feeCoin, deducted.negate(), fee.negate(), now, now, o.category().wire(), BigDecimal.ZERO);
        return new Settled(next, fill);
    }

    /** The balance rows a spot order's fills touch: base, quote and, with deduction on, the platform token. */
    static List<BalanceKey> keys(long uid, Instrument inst, String token, boolean deduct) {
        return deduct ? List.of(key(uid, inst.baseCoin()), key(uid, inst.quoteCoin()), key(uid, token))
                : List.of(key(uid, inst.baseCoin()), key(uid, inst.quoteCoin()));
    }

    static BalanceKey key(long uid, String coin) { return new BalanceKey(uid, AccountType.unified, coin); }
}
