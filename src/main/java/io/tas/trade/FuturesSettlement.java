package io.tas.trade;

import io.tas.ledger.Ledger;
import io.tas.ledger.LedgerTypes.BalanceKey;
import io.tas.ledger.LedgerTypes.Counter;
import io.tas.ledger.LedgerTypes.Field;
import io.tas.market.Instrument;
import io.tas.position.Position;
import io.tas.position.Position.HoldSide;
import io.tas.position.PositionMath;
import io.tas.position.PositionService;
import io.tas.spot.SpotFill;
import io.tas.store.Tx;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

import static io.tas.ledger.Ledger.move;

/**
 * One side of a futures fill: the order's freeze released for what the fill used, then the position opened, added to,
 * reduced or closed through the position service (margin, PnL, fee). In hedge mode posSide names the position and the
 * side opens or closes it; in one-way mode a fill first reduces the opposite position, and opens with the rest unless
 * the order is reduce-only. Sizes are in the base coin (D140).
 */
final class FuturesSettlement {
    private final Ledger ledger;
    private final PositionService positions;

    FuturesSettlement(Ledger ledger, PositionService positions) {
        this.ledger = ledger;
        this.positions = positions;
    }

    /** The order after the fill, the fill's record, and the base size that really traded (0: nothing to close). */
    record Settled(TradeOrder order, SpotFill fill, BigDecimal size) {}

    /** The fee of a fill in the margin coin: notional x rate (linear), size x rate in the base coin (inverse). */
    static BigDecimal fee(Instrument inst, BigDecimal price, BigDecimal size, BigDecimal rate) {
        return Ledger.plain(inst.isInverse() ? size.multiply(rate) : price.multiply(size).multiply(rate));
    }

    /** What an opening order freezes for a size at a price: its initial margin and the taker fee (the most it can pay). */
    static BigDecimal freeze(Instrument inst, BigDecimal price, BigDecimal size, BigDecimal leverage) {
        return Ledger.scaled(PositionMath.initialMargin(inst.isInverse(), size, price, leverage)).add(fee(inst, price, size, inst.takerFeeRate())).stripTrailingZeros();
    }

    /** How much of `size` an order can still trade now: a closing order or a reduce-only one at most its position's size. */
    BigDecimal tradable(Tx tx, TradeOrder o, BigDecimal size) {
        if (o.holdMode().equals("hedge_mode")) {
            if (!o.closes()) return size;
            return position(tx, o, HoldSide.fromWire(o.posSide())).map(p -> p.size().min(size)).orElse(BigDecimal.ZERO);
        }
        if (!o.reduceOnly()) return size;
        return position(tx, o, opposite(o)).map(p -> p.size().min(size)).orElse(BigDecimal.ZERO);
    }

    Settled settle(Tx tx, TradeOrder o, Instrument inst, BigDecimal price, BigDecimal wanted, String scope, long tradeId, long now) {
        BigDecimal size = tradable(tx, o, wanted);
        if (size.signum() == 0) return new Settled(o, null, BigDecimal.ZERO);
        BigDecimal rate = scope.equals("maker") ? inst.makerFeeRate() : inst.takerFeeRate();
        BigDecimal fee = fee(inst, price, size, rate);
        BalanceKey key = o.key(inst.marginCoin());
        BigDecimal release = o.frozen().signum() == 0 ? BigDecimal.ZERO
                : freeze(inst, o.price() != null ? o.price() : price, size, o.leverage()).min(o.frozen());
        if (release.signum() > 0) {
            ledger.post(tx, "order_fill", null, o.uid(), List.of(move(key, Field.frozen, release.negate(), Counter.order),
                    move(key, Field.available, release, Counter.order)));
        }
        BigDecimal pnl = BigDecimal.ZERO;
        if (o.holdMode().equals("hedge_mode")) {
            HoldSide side = HoldSide.fromWire(o.posSide());
            pnl = o.closes() ? reduce(tx, o, side, size, price, fee) : open(tx, o, inst, side, size, price, fee);
        } else {
            HoldSide opposite = opposite(o);
            BigDecimal reduced = position(tx, o, opposite).map(p -> p.size().min(size)).orElse(BigDecimal.ZERO);
            BigDecimal opened = o.reduceOnly() ? BigDecimal.ZERO : size.subtract(reduced);
            BigDecimal reduceFee = reduced.signum() == 0 ? BigDecimal.ZERO : Ledger.plain(fee.multiply(reduced).divide(size, PositionMath.MC));
            if (reduced.signum() > 0) pnl = reduce(tx, o, opposite, reduced, price, reduceFee);
            if (opened.signum() > 0) open(tx, o, inst, opposite == HoldSide.long_ ? HoldSide.short_ : HoldSide.long_, opened, price, fee.subtract(reduceFee));
        }
        BigDecimal amount = Ledger.plain(price.multiply(size));
        TradeOrder next = o.next(o.frozen().subtract(release), o.cumExecQty().add(size), o.cumExecValue().add(amount),
                o.fee().add(fee), inst.marginCoin(), TradeOrder.PARTIALLY_FILLED, null, now);
        SpotFill fill = new SpotFill(o.uid(), tradeId, o.orderId(), o.symbol(), o.orderType(), o.side(), price, size, amount, scope,
                "no", inst.marginCoin(), BigDecimal.ZERO, fee.negate(), now, now, o.category().wire(), pnl.stripTrailingZeros());
        return new Settled(next, fill, size);
    }

    private BigDecimal open(Tx tx, TradeOrder o, Instrument inst, HoldSide side, BigDecimal size, BigDecimal price, BigDecimal fee) {
        Optional<Position> p = position(tx, o, side);
        if (p.isPresent()) positions.fill(tx, new PositionService.Fill(p.get().id(), size, price, fee, null));
        else positions.open(tx, new PositionService.Open(o.uid(), o.category(), o.symbol(), side,
                io.tas.account.AccountEnums.MarginMode.valueOf(o.marginMode()), o.leverage(), size, price, fee, null));
        return BigDecimal.ZERO;
    }

    /** Reduces the side's position by size; the realised PnL. */
    private BigDecimal reduce(Tx tx, TradeOrder o, HoldSide side, BigDecimal size, BigDecimal price, BigDecimal fee) {
        Position before = position(tx, o, side).orElseThrow();
        Position after = positions.fill(tx, new PositionService.Fill(before.id(), size.negate(), price, fee, null));
        return after.achievedProfits().subtract(before.achievedProfits());
    }

    private Optional<Position> position(Tx tx, TradeOrder o, HoldSide side) {
        return positions.findOpen(tx, o.uid(), o.category(), o.symbol(), side);
    }

    /** In one-way mode, the position a buy reduces is the short one, a sell's the long one. */
    private static HoldSide opposite(TradeOrder o) { return o.isBuy() ? HoldSide.short_ : HoldSide.long_; }
}
