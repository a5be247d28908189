package io.tas.proof;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.proof.ModelAccount.Bal;
import io.tas.proof.ModelAccount.Config;
import io.tas.proof.ModelAccount.Position;
import io.tas.proof.RefModel.Contract;
import io.tas.proof.RefModel.Verdict;
import io.tas.support.ApiClient.Reply;

import java.math.BigDecimal;
import java.util.List;

import static io.tas.proof.RefModel.dec;

/**
 * The reference model's positions (RefModel): opens, adds, reduces and closes as a matching engine reports them (D23,
 * D35), set-leverage (§4.1.2, D46) and set-margin (§4.1.3, D47), with ModelFormulas' arithmetic.
 */
final class ModelPositions {
    private final RefModel m;

    ModelPositions(RefModel m) { this.m = m; }

    // --- figures at the mark (formulas.md, Positions)

    BigDecimal mark(Position p) { return m.marks.get(p.contract.symbol()); }

    BigDecimal upl(Position p) { return ModelFormulas.pnl(p.inverse(), p.dir(), p.size, p.entry, mark(p)); }

    BigDecimal mmr(Position p) { return ModelFormulas.mmr(p.contract.tiers(), p.size, mark(p)); }

    BigDecimal maintenance(Position p) { return ModelFormulas.maintenance(p.inverse(), p.size, mark(p), mmr(p)); }

    /** The margin backing a position: its own; a crossed one also the unified available of its margin coin (formulas.md). */
    BigDecimal backing(ModelAccount a, Position p) {
        return p.marginMode.equals("crossed") ? p.margin.add(a.unified(p.marginCoin()).available) : p.margin;
    }

    // --- positions as a matching engine reports them (admin rows)

    void open(JsonNode b, Reply r) {
        ModelAccount a = m.accounts.get(RefModel.byUid(b.path("uid").asLong()));
        Contract c = m.contracts.get(b.path("symbol").asText());
        String side = b.path("holdSide").asText(), mode = b.path("marginMode").asText("crossed");
        BigDecimal leverage = dec(b.get("leverage")), size = dec(b.get("size")), price = dec(b.get("price"));
        BigDecimal fee = b.has("fee") ? dec(b.get("fee")) : BigDecimal.ZERO;
        if (a != null) m.positionsAddressed.add(a.acct);
        Verdict v;
        if (a == null || c == null || !c.category().equals(b.path("category").asText())) v = Verdict.refuse("no such account or contract");
        else if (!List.of("long", "short").contains(side) || !List.of("crossed", "isolated").contains(mode)) v = Verdict.refuse("bad side or mode");
        else if (leverage == null || leverage.signum() <= 0 || leverage.stripTrailingZeros().scale() > 2
                || leverage.compareTo(BigDecimal.valueOf(c.maxLeverage())) > 0) v = Verdict.refuse("leverage " + leverage + " above " + c.maxLeverage());
        else if (!positive(size) || !positive(price) || !ModelFormulas.ledgerAmount(fee) || fee.signum() < 0) v = Verdict.refuse("bad size, price or fee");
        else if (a.open(c.symbol(), side) != null) v = Verdict.refuse("a " + side + " " + c.symbol() + " position is open already");
        else if (a.unified(c.marginCoin()).available.compareTo(ModelFormulas.initialMargin(c.inverse(), size, price, leverage).add(fee)) < 0) v = Verdict.insufficient(c.marginCoin());
        else v = Verdict.accept("");
        if (!m.settle("position-open " + b, v, r)) return;
        m.changed.add(a.acct);
        Position p = new Position(r.data().get("id").asText(), c, side, mode, leverage);
        p.size = size;
        p.openTotal = size;
        p.entry = price;
        p.margin = ModelFormulas.initialMargin(c.inverse(), size, price, leverage);
        BigDecimal paid = m.charged(fee);
        p.openFee = paid.negate();
        Bal bal = a.unified(c.marginCoin());
        bal.available = bal.available.subtract(p.margin).subtract(paid);
        bal.frozen = bal.frozen.add(p.margin);
        a.positions.put(p.id, p);
        m.check.view(p, r.data(), "open");
    }

    /** A position the engine opened (issue 25): as an admin open of the same figures, with the service's id. */
    void openDirect(ModelAccount a, Contract c, String id, String side, String mode, BigDecimal leverage, BigDecimal size,
                    BigDecimal price, BigDecimal fee) {
        Position p = new Position(id, c, side, mode, leverage);
        p.size = size;
        p.openTotal = size;
        p.entry = price;
        p.margin = ModelFormulas.initialMargin(c.inverse(), size, price, leverage);
        p.openFee = fee.negate();
        Bal bal = a.unified(c.marginCoin());
        bal.available = bal.available.subtract(p.margin).subtract(fee);
        bal.frozen = bal.frozen.add(p.margin);
        a.positions.put(p.id, p);
    }

    /** A fill (size > 0 adds, < 0 reduces) or a close (the whole size) of position id. */
    void fill(String id, boolean close, JsonNode b, Reply r) {
        ModelAccount a = null;
        Position p = null;
        for (ModelAccount x : m.accounts.values()) if (x.positions.containsKey(id)) { a = x; p = x.positions.get(id); }
        if (a != null) m.positionsAddressed.add(a.acct);
        BigDecimal delta = close ? (p == null ? BigDecimal.ONE.negate() : p.size.negate()) : dec(b.get("size"));
        BigDecimal price = dec(b.get("price")), fee = b.has("fee") ? dec(b.get("fee")) : BigDecimal.ZERO;
        String what = (close ? "position-close " : "position-fill ") + id + " " + b;
        Verdict v;
        if (p == null) v = Verdict.refuse("no open position " + id);
        else if (!ModelFormulas.ledgerAmount(delta) || delta.signum() == 0 || !positive(price) || !ModelFormulas.ledgerAmount(fee) || fee.signum() < 0) v = Verdict.refuse("bad size, price or fee");
        else if (delta.signum() < 0 && delta.negate().compareTo(p.size) > 0) v = Verdict.refuse("a reduce of " + delta.negate() + " beyond the size " + p.size);
        else if (delta.signum() > 0 && a.unified(p.marginCoin()).available.compareTo(ModelFormulas.initialMargin(p.inverse(), delta, price, p.leverage).add(fee)) < 0) v = Verdict.insufficient(p.marginCoin());
        else v = Verdict.accept("");
        if (!m.settle(what, v, r)) return;
        m.changed.add(a.acct);
        if (delta.signum() > 0) add(a, p, delta, price, m.charged(fee));
        else reduce(a, p, delta.negate(), price, m.charged(fee));
        m.check.view(p, r.data(), p.size.signum() == 0 ? "closed" : "open");
    }

    void add(ModelAccount a, Position p, BigDecimal q, BigDecimal price, BigDecimal fee) {
        BigDecimal margin = ModelFormulas.initialMargin(p.inverse(), q, price, p.leverage);
        boolean harmonic = p.inverse() && m.fault == RefModel.Fault.HARMONIC_INVERSE_MEAN;
        if (p.inverse() && price.compareTo(p.entry) != 0) m.event("inverse-add");
        p.entry = harmonic ? ModelFormulas.harmonicEntry(p.size, p.entry, q, price) : ModelFormulas.entryAfterAdd(p.size, p.entry, q, price);
        p.size = p.size.add(q);
        p.openTotal = p.openTotal.add(q);
        p.margin = p.margin.add(margin);
        p.openFee = p.openFee.subtract(fee);
        Bal bal = a.unified(p.marginCoin());
        bal.available = bal.available.subtract(margin).subtract(fee);
        bal.frozen = bal.frozen.add(margin);
    }

    /** D35: a reduce always succeeds; a shortfall is borrowed (unified) or covered by insurance (classic). */
    void reduce(ModelAccount a, Position p, BigDecimal q, BigDecimal price, BigDecimal fee) {
        BigDecimal realised = ModelFormulas.realised(p.inverse(), p.dir(), q, p.entry, price);
        BigDecimal released = ModelFormulas.released(p.margin, q, p.size);
        Bal bal = a.unified(p.marginCoin());
        bal.frozen = bal.frozen.subtract(released);
        bal.available = bal.available.add(released).add(realised).subtract(fee);
        if (bal.available.signum() < 0) {
            if (a.unified) bal.debt = bal.debt.subtract(bal.available);
            bal.available = BigDecimal.ZERO;
            m.event(a.unified ? "shortfall-borrowed" : "shortfall-insured");
        }
        p.size = p.size.subtract(q);
        p.margin = p.margin.subtract(released);
        p.achieved = p.achieved.add(realised);
        p.closeFee = p.closeFee.subtract(fee);
        p.closeTotal = p.closeTotal.add(q);
        p.closeValue = ModelFormulas.ledger(p.closeValue.add(q.multiply(price)));
        if (p.size.signum() == 0) a.closed.put(p.id, a.positions.remove(p.id));
        if (p.inverse()) m.event(p.size.signum() == 0 ? "inverse-close" : "inverse-reduce");
    }

    // --- §4.1.2 set-leverage (D46, formulas.md "Leverage and isolated margin")

    void setLeverage(ModelAccount a, JsonNode b, Reply r) { setLeverage(a, b, r, false); }

    /** classic: the v2 set-leverage or set-margin-mode row, as ModelClassic translates it into this row's body. */
    void setLeverage(ModelAccount a, JsonNode b, Reply r, boolean classic) {
        String category = b.path("category").asText();
        Contract c = m.contracts.get(b.path("symbol").asText());
        if (category.equals("MARGIN")) {
            m.settle("set-leverage " + b, a.unified ? Verdict.accept("") : Verdict.refuse("a classic account"), r);
            return; // a margin-line leverage moves no money
        }
        String mode = b.path("marginMode").asText("crossed");
        BigDecimal lev = dec(b.get("leverage")), longLev = dec(b.get("longLeverage")), shortLev = dec(b.get("shortLeverage"));
        String posSide = b.has("posSide") ? b.get("posSide").asText() : null;
        Config target = null;
        Verdict v;
        if (a.unified == classic) v = Verdict.refuse("the other family's row");
        else if (c == null || !c.category().equals(category)) v = Verdict.refuse("not a contract");
        else if ((b.has("leverage") && !validLeverage(lev, c)) || (b.has("longLeverage") && !validLeverage(longLev, c))
                || (b.has("shortLeverage") && !validLeverage(shortLev, c))) v = Verdict.refuse("leverage out of bounds");
        else if ((target = resolve(a.config(c), mode, lev, longLev, shortLev, posSide)) == null) v = Verdict.refuse("no leverage for the mode");
        else v = moveMargins(a, c, target, false);
        if (!m.settle("set-leverage " + b, v, r)) return;
        moveMargins(a, c, target, true);
        a.configs.put(c.symbol(), target);
    }

    /** D46: crossed has one leverage (long/shortLeverage win); isolated sets the named sides, posSide's without them. */
    private static Config resolve(Config base, String mode, BigDecimal lev, BigDecimal longLev, BigDecimal shortLev, String posSide) {
        if (mode.equals("crossed")) {
            if (longLev != null && shortLev != null && longLev.compareTo(shortLev) != 0) return null;
            BigDecimal l = longLev != null ? longLev : shortLev != null ? shortLev : lev;
            return l == null ? null : new Config(mode, l, l);
        }
        if (!mode.equals("isolated")) return null;
        if (longLev != null || shortLev != null) {
            return new Config(mode, longLev != null ? longLev : base.longLeverage(), shortLev != null ? shortLev : base.shortLeverage());
        }
        if (lev == null || posSide == null || !List.of("long", "short").contains(posSide)) return null;
        return new Config(mode, posSide.equals("long") ? lev : base.longLeverage(), posSide.equals("short") ? lev : base.shortLeverage());
    }

    /** The verdict on the contract's open positions taking the target leverage; with apply, the move itself. */
    private Verdict moveMargins(ModelAccount a, Contract c, Config target, boolean apply) {
        BigDecimal delta = BigDecimal.ZERO;
        for (Position p : a.positions.values()) {
            if (p.contract != c) continue;
            if (!p.marginMode.equals(target.marginMode())) return Verdict.refuse("marginMode cannot change under an open position");
            BigDecimal lev = target.leverage(p.side);
            if (lev.compareTo(p.leverage) == 0) continue;
            BigDecimal margin = ModelFormulas.marginAfterLeverage(p.inverse(), p.size, p.entry, p.margin, p.leverage, lev);
            if (margin.compareTo(p.margin) < 0 && margin.add(upl(p).min(BigDecimal.ZERO)).compareTo(maintenance(p)) <= 0) {
                return Verdict.refuse("leverage " + lev + " leaves " + p + " below its maintenance margin");
            }
            delta = delta.add(margin.subtract(p.margin));
            if (apply) {
                p.margin = margin;
                p.leverage = lev;
                m.event("leverage-moves-margin");
            }
        }
        Bal bal = a.unified(c.marginCoin());
        if (!apply) return bal.available.compareTo(delta) < 0 ? Verdict.insufficient(c.marginCoin()) : Verdict.accept("");
        bal.available = bal.available.subtract(delta);
        bal.frozen = bal.frozen.add(delta);
        return null;
    }

    // --- §4.1.3 set-margin (D47)

    void setMargin(ModelAccount a, JsonNode b, Reply r) {
        Contract c = m.contracts.get(b.path("symbol").asText());
        String op = b.path("operation").asText();
        BigDecimal amount = dec(b.get("amount"));
        Position p = c == null ? null : a.open(c.symbol(), b.path("posSide").asText());
        Verdict v;
        if (!a.unified) v = Verdict.refuse("a classic account");
        else if (c == null || !c.category().equals(b.path("category").asText())) v = Verdict.refuse("not a contract");
        else if (!List.of("add", "remove").contains(op) || !ModelFormulas.ledgerAmount(amount) || amount.signum() <= 0) v = Verdict.refuse("bad operation or amount");
        else if (p == null) v = Verdict.refuse("no open position on that side");
        else if (!p.marginMode.equals("isolated")) v = Verdict.refuse("a crossed position");
        else if (op.equals("remove") && amount.compareTo(removable(p)) > 0) v = Verdict.refuse("beyond the removable " + removable(p));
        else if (op.equals("add") && a.unified(p.marginCoin()).available.compareTo(amount) < 0) v = Verdict.insufficient(p.marginCoin());
        else v = Verdict.accept("");
        if (!m.settle("set-margin " + b, v, r)) return;
        BigDecimal signed = op.equals("add") ? amount : amount.negate();
        Bal bal = a.unified(p.marginCoin());
        bal.available = bal.available.subtract(signed);
        bal.frozen = bal.frozen.add(signed);
        p.margin = p.margin.add(signed);
        m.event("set-margin-" + op);
    }

    private BigDecimal removable(Position p) {
        return ModelFormulas.removable(p.margin, upl(p), ModelFormulas.initialMargin(p.inverse(), p.size, p.entry, p.leverage), maintenance(p));
    }

    /** §4.1.2 bounds: 1 to the contract's maximum, at most 2 decimals. */
    private static boolean validLeverage(BigDecimal l, Contract c) {
        return l != null && l.compareTo(BigDecimal.ONE) >= 0 && l.compareTo(BigDecimal.valueOf(c.maxLeverage())) <= 0 && l.stripTrailingZeros().scale() <= 2;
    }

    private static boolean positive(BigDecimal v) { return ModelFormulas.ledgerAmount(v) && v.signum() > 0; }
}
