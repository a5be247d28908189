package io.tas.admin.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.helidon.webserver.http.HttpRouting;
import io.tas.account.Account;
import io.tas.account.AccountEnums.AccountKind;
import io.tas.admin.AdminSurface;
import io.tas.admin.MoneyAdmin;
import io.tas.admin.SeedFile.LedgerOp;
import io.tas.admin.SeedFile.SeedKey;
import io.tas.auth.ApiKey;
import io.tas.auth.Permission;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;
import io.tas.http.Json;
import io.tas.ledger.Ledger;
import io.tas.position.PositionMath;
import io.tas.position.PositionService;
import io.tas.spot.SpotFill;
import io.tas.spot.SpotRecords;
import io.tas.spot.UnifiedRecords;
import io.tas.trade.TradeOrder;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static io.tas.admin.console.Html.*;

/**
 * The accounts pages: main accounts with their sub-accounts; one account's keys (create: the secret shown once; revoke),
 * balances, deposit, positions with live PnL, open orders, fills, deposit records and ledger journal.
 */
final class AccountPages {
    /** How many rows of each list an account page shows (newest first). */
    static final int ROWS = 30;
    private static final String[] PERMISSIONS = Arrays.stream(Permission.values()).filter(p -> p != Permission.NONE).map(Permission::wire)
            .toArray(String[]::new);

    private final AdminSurface admin;
    private final ConsoleReads reads;
    private final SecureRandom random = new SecureRandom();

    AccountPages(AdminSurface admin) {
        this.admin = admin;
        this.reads = admin.reads();
    }

    void register(ConsoleRoutes c, HttpRouting.Builder r) {
        c.get(r, "/console/accounts", q -> list());
        c.get(r, "/console/accounts/{uid}", this::account);
        c.fragment(r, "/console/accounts/{uid}/positions", q -> positions(q.uid())); // what the account page's script reloads
        c.get(r, "/console/accounts/{uid}/keys/{accessKey}", this::createdKey);
        c.post(r, "/console/accounts/{uid}/keys", this::createKey, this::account);
        c.post(r, "/console/accounts/{uid}/keys/{accessKey}/revoke", this::revoke, this::account);
        c.post(r, "/console/accounts/{uid}/deposit", this::deposit, this::account);
    }

    private ConsoleRoutes.Page list() {
        List<String> rows = new ArrayList<>();
        for (Account main : reads.accounts().mainAccounts(200)) {
            rows.add(row(main, ""));
            for (Account sub : reads.accounts().subAccounts(main.uid(), null, 100).list()) rows.add(row(sub, "↳ "));
        }
        return new ConsoleRoutes.Page("Accounts", "accounts",
                table("accounts", List.of("UID", "Username", "Kind", "Role", "Status", "Created"), rows, "No accounts yet."));
    }

    private static String row(Account a, String indent) {
        return tr("data-uid=\"" + a.uid() + "\" data-kind=\"" + kind(a) + "\"",
                "<td>" + esc(indent) + link("/console/accounts/" + a.uid(), a.uid()) + "</td>", td(a.username()), td(kind(a)),
                td(a.isSub() ? "sub-account of " + a.parentUid() : "main"), td(a.status()), td(time(a.createdTime())));
    }

    private static String kind(Account a) { return a.kind() == AccountKind.UNIFIED ? "unified" : "classic"; }

    private Account require(long uid) {
        return reads.accounts().find(uid).orElseThrow(() -> new ApiException(ErrorCode.PARAM_NOT_EXIST, "uid " + uid));
    }

    private ConsoleRoutes.Page account(ConsoleRoutes.Req q) {
        long uid = q.uid();
        Account a = require(uid);
        Session s = q.session();
        String base = "/console/accounts/" + uid;
        StringBuilder b = new StringBuilder();
        b.append("<p id=\"account\" data-uid=\"").append(uid).append("\" data-kind=\"").append(kind(a)).append("\">")
                .append(esc(a.username())).append(" · ").append(kind(a)).append(" · ").append(esc(a.status()))
                .append(a.isSub() ? " · sub-account of " + link("/console/accounts/" + a.parentUid(), a.parentUid()) : " · main account")
                .append("</p>");
        if (!a.isSub()) {
            List<Account> subs = reads.accounts().subAccounts(uid, null, 100).list();
            if (!subs.isEmpty()) {
                b.append("<p>Sub-accounts: ");
                subs.forEach(x -> b.append(link("/console/accounts/" + x.uid(), x.uid())).append(" (").append(kind(x)).append(") "));
                b.append("</p>");
            }
        }

        b.append("<section><h2>Balances</h2>");
        List<String> balances = admin.money().balances(uid).stream().map(v -> tr(
                "data-account=\"" + esc(v.account()) + "\" data-coin=\"" + esc(v.coin()) + "\"", td(v.account()), td(v.coin()),
                "<td class=\"n\" data-field=\"available\">" + esc(v.available()) + "</td>",
                "<td class=\"n\" data-field=\"frozen\">" + esc(v.frozen()) + "</td>",
                "<td class=\"n\" data-field=\"debt\">" + esc(v.debt()) + "</td>")).toList();
        b.append(table("balances", List.of("Account", "Coin", "Available", "Frozen", "Debt"), balances, "No balances."));
        b.append(form(base + "/deposit", s, "deposit")).append("Deposit: ")
                .append(select("account", "to", a.kind() == AccountKind.UNIFIED ? List.of("unified", "spot") : List.of("spot", "unified")))
                .append(input("coin", "coin", "USDT", "text")).append(input("amount", "amount", "", "text"))
                .append("<input type=\"hidden\" name=\"ref\" value=\"console-").append(nonce()).append("\">")
                .append("<button id=\"deposit-submit\">Deposit</button></form></section>");

        b.append("<section id=\"positions-live\" data-src=\"").append(base).append("/positions\"><h2>Positions (live)</h2><div id=\"positions-body\">")
                .append(positions(uid)).append("</div></section>")
                // Only this section reloads, every 3 s: forms being typed in are left alone.
                .append("<script>setInterval(function(){var s=document.getElementById('positions-live');")
                .append("fetch(s.dataset.src,{credentials:'same-origin'}).then(function(r){return r.ok?r.text():null})")
                .append(".then(function(h){if(h!==null){document.getElementById('positions-body').innerHTML=h;}});},3000);</script>");

        b.append("<section><h2>Open orders</h2>").append(orders(uid)).append("</section>");
        b.append("<section><h2>Fills</h2>").append(a.kind() == AccountKind.UNIFIED ? unifiedFills(uid) : classicFills(uid)).append("</section>");
        if (a.kind() == AccountKind.UNIFIED) b.append("<section><h2>Deposit records</h2>").append(deposits(uid)).append("</section>");
        b.append("<section><h2>Ledger journal</h2>").append(journal(uid)).append("</section>");
        b.append("<section><h2>API keys</h2>").append(keys(uid, s)).append("</section>");
        return new ConsoleRoutes.Page("Account " + uid, "accounts", b.toString());
    }

    /** The positions table alone: the account page shows it and its script reloads it (live mark price and PnL). */
    String positions(long uid) {
        require(uid);
        List<String> rows = new ArrayList<>();
        for (PositionService.Valuation v : admin.money().positions(uid)) {
            var p = v.position();
            rows.add(tr("data-symbol=\"" + esc(p.symbol()) + "\" data-side=\"" + esc(p.holdSide().wire()) + "\"", td(p.category().wire()),
                    td(p.symbol()), td(p.holdSide().wire()), num(p.size()), num(PositionMath.round(p.openPriceAvg())), num(v.markPrice()),
                    "<td class=\"n\" data-field=\"unrealizedPL\">" + esc(plain(PositionMath.round(v.unrealizedPL()))) + "</td>",
                    num(p.leverage()), num(PositionMath.round(p.marginSize())), td(p.marginMode().name())));
        }
        return table("positions", List.of("Category", "Symbol", "Side", "Size", "Open price", "Mark price", "Unrealized PnL",
                "Leverage", "Margin", "Margin mode"), rows, "No open positions.")
                + "<p class=\"muted\" id=\"positions-at\">as of " + esc(time(Long.parseLong(admin.sandbox().clock().now()))) + "</p>";
    }

    private String orders(long uid) {
        List<String> rows = new ArrayList<>();
        for (TradeOrder o : reads.trading().unfilled(uid, null, null, null, ROWS)) {
            rows.add(tr("data-order-id=\"" + o.orderId() + "\"", td(o.orderId()), td(o.category().wire()),
                    "<td>" + link("/console/book/" + o.category().wire() + "/" + o.symbol(), o.symbol()) + "</td>", td(o.side()),
                    td(o.orderType()), num(o.price()), num(o.qty()), num(o.cumExecQty()), td(o.frozenCoin()), num(o.frozen()),
                    td(o.status()), td(time(o.cTime()))));
        }
        return table("orders", List.of("Order ID", "Category", "Symbol", "Side", "Type", "Price", "Qty", "Filled", "Frozen coin",
                "Frozen", "Status", "Created"), rows, "No open orders.");
    }

    private String unifiedFills(long uid) {
        var page = reads.unifiedRecords().fills(uid, new UnifiedRecords.FillQuery(null, null, null, null, ROWS, null));
        List<String> rows = new ArrayList<>();
        for (SpotFill f : page.list()) {
            rows.add(tr("data-trade-id=\"" + f.tradeId() + "\"", td(f.tradeId()), td(f.orderId()), td(f.category()), td(f.symbol()),
                    td(f.side()), num(f.priceAvg()), num(f.size()), num(f.amount()), num(f.totalFee()), td(f.feeCoin()), td(time(f.cTime()))));
        }
        return table("fills", List.of("Trade ID", "Order ID", "Category", "Symbol", "Side", "Price", "Size", "Amount", "Fee",
                "Fee coin", "Time"), rows, "No fills in the last 30 days.");
    }

    /** A classic account's spot fills are stored as their wire JSON (D75): the page reads the same fields from it. */
    private String classicFills(long uid) {
        List<String> rows = new ArrayList<>();
        for (byte[] json : reads.spot().fillPage(uid, new SpotRecords.FillQuery(null, null, null, null, ROWS, null))) {
            JsonNode f;
            try {
                f = Json.MAPPER.readTree(json);
            } catch (java.io.IOException e) {
                continue;
            }
            rows.add(tr("data-trade-id=\"" + esc(f.path("tradeId").asText()) + "\"", td(f.path("tradeId").asText()),
                    td(f.path("orderId").asText()), td("SPOT"), td(f.path("symbol").asText()), td(f.path("side").asText()),
                    td(f.path("priceAvg").asText()), td(f.path("size").asText()), td(f.path("amount").asText()),
                    td(f.path("feeDetail").path("totalFee").asText()), td(f.path("feeDetail").path("feeCoin").asText()),
                    td(time(f.path("cTime").asLong()))));
        }
        return table("fills", List.of("Trade ID", "Order ID", "Category", "Symbol", "Side", "Price", "Size", "Amount", "Fee",
                "Fee coin", "Time"), rows, "No fills in the last 90 days.");
    }

    private String deposits(long uid) {
        long now = Long.parseLong(admin.sandbox().clock().now()); // records carry service time, which a sandbox may have moved
        List<String> rows = reads.unifiedRecords().deposits(uid, new UnifiedRecords.RecordQuery(null, null, null,
                        now - 90L * 24 * 3600 * 1000, now + 3650L * 24 * 3600 * 1000, ROWS, null)).stream()
                .map(d -> tr("", td(d.orderId()), td(d.coin()), num(d.size()), td(d.status()), td(d.recordId()), td(time(d.cTime())))).toList();
        return table("deposits", List.of("Order ID", "Coin", "Size", "Status", "Record ID", "Time"), rows, "No deposit records.");
    }

    private String journal(long uid) {
        List<String> rows = new ArrayList<>();
        for (Ledger.JournalLine l : reads.ledger().journal(uid, ROWS)) {
            rows.add(tr("data-tx-id=\"" + l.txId() + "\"", td(l.txId()), td(l.kind()), td(l.ref()), td(l.account()), td(l.field()),
                    td(l.coin()), num(l.amount()), td(l.counter()), td(time(l.time()))));
        }
        // D224: the counter account the row moved against (its other side, no row of its own).
        return table("journal", List.of("Tx", "Kind", "Ref", "Account", "Field", "Coin", "Amount", "Counter", "Time"), rows, "No ledger entries.");
    }

    private String keys(long uid, Session s) {
        String base = "/console/accounts/" + uid;
        List<String> rows = new ArrayList<>();
        for (ApiKey k : reads.keys().list(uid)) {
            String revoke = k.revoked() ? "revoked" : form(base + "/keys/" + k.accessKey() + "/revoke", s, "revoke-" + k.accessKey())
                    + "<button>Revoke</button></form>";
            rows.add(tr("data-access-key=\"" + esc(k.accessKey()) + "\" data-revoked=\"" + k.revoked() + "\"", td(k.accessKey()),
                    td(k.label()), td(k.permType().wire()), td(String.join(", ", k.permissions().stream().map(Permission::wire).toList())),
                    td(k.ipsWire()), td(time(k.createdTime())), "<td>" + revoke + "</td>"));
        }
        StringBuilder b = new StringBuilder(table("keys", List.of("Access key", "Label", "Type", "Permissions", "IPs", "Created", ""),
                rows, "No API keys."));
        b.append("<p>").append(form(base + "/keys", s, "create-key")).append("New key: ")
                .append(input("label", "label", "", "text")).append(input("passphrase", "passphrase", "", "password"))
                .append(select("permType", "type", List.of("read-and-write", "read-only")));
        for (String p : PERMISSIONS) {
            boolean on = p.equals("uta_mgt") || p.equals("uta_trade");
            b.append("<label><input type=\"checkbox\" name=\"perm-").append(p).append("\" value=\"on\"").append(on ? " checked" : "")
                    .append("> ").append(p).append("</label> ");
        }
        return b.append("<button id=\"create-key-submit\">Create key</button></form></p>").toString();
    }

    private String createKey(ConsoleRoutes.Req q) {
        long uid = q.uid();
        require(uid);
        List<String> perms = Arrays.stream(PERMISSIONS).filter(p -> q.field("perm-" + p) != null).toList();
        if (perms.isEmpty()) throw new ApiException(ErrorCode.PARAM_EMPTY, "permissions");
        var created = admin.provisioning().createKey(uid, new SeedKey(uid, null, null, q.field("passphrase"), q.field("label"),
                q.field("permType"), perms, null));
        q.session().secret(new Session.CreatedSecret(created.key().accessKey(), uid, created.secret()));
        return "/console/accounts/" + uid + "/keys/" + created.key().accessKey();
    }

    /** The secret of a key this session just created, on the first view only; a reload shows that it is gone. */
    private ConsoleRoutes.Page createdKey(ConsoleRoutes.Req q) {
        long uid = q.uid();
        String accessKey = q.path("accessKey");
        Session.CreatedSecret s = q.session().takeSecret(accessKey);
        StringBuilder b = new StringBuilder("<p>Access key: <code id=\"access-key\">").append(esc(accessKey)).append("</code></p>");
        if (s != null && s.uid() == uid) {
            b.append("<p>Secret (shown this once: copy it now; it is stored encrypted and never shown again):</p>")
                    .append("<p class=\"secret\" id=\"secret\">").append(esc(s.secret())).append("</p>")
                    .append("<p>The passphrase is the one you typed; it is stored only as a hash.</p>");
        } else {
            b.append("<p class=\"note\" id=\"secret-gone\">The secret was shown once, when the key was created, and cannot be shown again."
                    + " Revoke the key and create another if it was lost.</p>");
        }
        b.append("<p>").append(link("/console/accounts/" + uid, "Back to account " + uid)).append("</p>");
        return new ConsoleRoutes.Page("New API key", "accounts", b.toString());
    }

    private String revoke(ConsoleRoutes.Req q) {
        long uid = q.uid();
        String accessKey = q.path("accessKey");
        // Only a key of this account, so a form of one account's page can never revoke another account's key.
        if (reads.keys().list(uid).stream().noneMatch(k -> k.accessKey().equals(accessKey) && !k.revoked())
                || !reads.keys().revoke(accessKey)) {
            throw new ApiException(ErrorCode.PARAM_NOT_EXIST, "accessKey");
        }
        q.session().notice("Revoked " + accessKey + ".");
        return "/console/accounts/" + uid;
    }

    private String deposit(ConsoleRoutes.Req q) {
        long uid = q.uid();
        MoneyAdmin.LedgerResult r = admin.money().deposit(new LedgerOp(uid, q.field("account"), q.field("coin"),
                Forms.decimal("amount", q.field("amount")), q.field("ref")));
        q.session().notice((r.repeated() ? "Already deposited (same form sent twice): " : "Deposited ") + q.field("amount") + " "
                + q.field("coin") + " to " + q.field("account") + ", ledger transaction " + r.txId() + ".");
        return "/console/accounts/" + uid;
    }

    private String nonce() {
        byte[] b = new byte[12];
        random.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }
}
