package io.tas.proof;

import com.fasterxml.jackson.databind.JsonNode;
import io.tas.api.Admin;
import io.tas.error.ErrorCode;
import io.tas.http.Endpoint;
import io.tas.proof.Cells.Expect;
import io.tas.proof.MatrixAccounts.Account;
import io.tas.proof.MatrixAccounts.KeySpec;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Databases;
import io.tas.support.ServerPool;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 6, tenancy: the caller's relation to the UID a request names (self, its own sub-account, its parent,
 * a stranger's main or sub-account, a sibling, no account) crossed with every row that takes a UID. §4.1.4 gives one:
 * adjust-account-mode's targetUid ("omitted: the calling account; a sub-account UID: the parent acts on that
 * sub-account"); D49: any other UID answers 40034 and nothing changes. The list is proved complete by probing every
 * authenticated row with every UID-like parameter (but the one it takes) naming a stranger: the row must ignore them,
 * answering exactly as without them (reads: the same data) and leaving the stranger's state as it was (writes).
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class RelationMatrixTest {
    @Parameter Databases.Kind kind;

    /** The rows that take a UID, and the parameter that carries it (§4; no other row's request names an account). */
    static final Map<Endpoint, String> UID_ROWS = Map.of(Endpoint.ADJUST_ACCOUNT_MODE, "targetUid");
    /** What a client might try to name another account with. */
    static final List<String> UID_LIKE = List.of("targetUid", "uid", "subUid", "userId");
    private static final long NO_SUCH_UID = 9_999_999_999L;

    private TestServer server;
    private Admin admin;
    private MatrixAccounts accounts;

    @Test
    void everyUidRowTimesEveryRelation() {
        assertThat(UID_ROWS).isNotEmpty();
        assertThat(UID_ROWS.keySet()).allSatisfy(e -> assertThat(SpecRows.of(e).isPublic()).isFalse());
        start("relation");
        Account main = accounts.unified(KeySpec.FULL, null);
        Account sub = accounts.unified(KeySpec.FULL, main.uid());
        Account sibling = accounts.unified(KeySpec.FULL, main.uid());
        Account stranger = accounts.unified(KeySpec.FULL, null);
        Account strangerSub = accounts.unified(KeySpec.FULL, stranger.uid());
        accounts.settleJobs();
        Expect ok = Expect.allowed("00000");
        Expect refused = Expect.denied(ErrorCode.PARAM_NOT_EXIST.code(), "Parameter targetUid does not exist");

        List<Cells.Cell> matrix = new ArrayList<>();
        for (Map.Entry<Endpoint, String> row : UID_ROWS.entrySet()) {
            String p = row.getValue();
            // D49 / §4.1.4: the caller itself and its own sub-accounts; a sub-account acts only on itself.
            matrix.add(cell(row.getKey(), "own sub-account", main, p, sub.uid(), ok));
            matrix.add(cell(row.getKey(), "self (main)", main, p, main.uid(), ok));
            matrix.add(cell(row.getKey(), "self (sub)", sub, p, sub.uid(), ok));
            matrix.add(cell(row.getKey(), "parent", sub, p, main.uid(), refused));
            matrix.add(cell(row.getKey(), "sibling", sub, p, sibling.uid(), refused));
            matrix.add(cell(row.getKey(), "stranger main", main, p, stranger.uid(), refused));
            matrix.add(cell(row.getKey(), "stranger's sub-account", main, p, strangerSub.uid(), refused));
            matrix.add(cell(row.getKey(), "stranger from a sub", sub, p, stranger.uid(), refused));
            matrix.add(cell(row.getKey(), "no such account", main, p, NO_SUCH_UID, refused));
        }
        Cells cells = new Cells(admin);
        cells.runAll(matrix);
        // The allowed cells acted on the account named, and only on it (the rows' basic level, set by each allowed cell).
        assertThat(level(sub)).isEqualTo("basic");
        assertThat(level(main)).isEqualTo("basic");
        assertThat(level(sibling)).isEqualTo("advanced");
        assertThat(level(stranger)).isEqualTo("advanced");
        assertThat(level(strangerSub)).isEqualTo("advanced");
        assertThat(cells.unchanged).isEqualTo(cells.denied).isPositive();
        io.tas.support.Proof.figure("relation-matrix %s: uid-rows=%d relations=9 cells=%d denied=%d unchanged=%d%n",
                kind, UID_ROWS.size(), cells.cells, cells.denied, cells.unchanged);
    }

    @Test
    void everyOtherRowIgnoresEveryUidLikeParameter() {
        start("tenancy");
        Account stranger = accounts.unified(KeySpec.FULL, null);
        Account strangerClassic = accounts.classic(KeySpec.FULL);
        admin.deposit(stranger.uid(), "unified", "BTC", "1"); // the stranger's data differs from any caller's
        Account[] caller = {accounts.unified(KeySpec.FULL, null), accounts.classic(KeySpec.FULL)};
        // Every authenticated row, the reads first (in ordered() order, then the writes): no write runs before a read compares.
        List<Endpoint> rows = RowRequests.ordered().stream().filter(e -> !SpecRows.of(e).isPublic())
                .sorted(java.util.Comparator.comparing(e -> !e.method().equals("GET"))).toList();
        // Each read as sent without the parameters, at the same instant as with them; a row allowing one call per
        // second answers it in the window before (its answers do not depend on the time).
        Map<Endpoint, JsonNode> plain = new LinkedHashMap<>();
        for (Endpoint row : rows) if (row.method().equals("GET") && SpecRows.of(row).perSecond() < 2) plain.put(row, plainRead(row, caller));
        ServerPool.nextSecond(kind);
        for (Endpoint row : rows) if (row.method().equals("GET") && SpecRows.of(row).perSecond() >= 2) plain.put(row, plainRead(row, caller));
        String before = strangerState(stranger, strangerClassic);
        int writes = 0;
        for (Endpoint row : rows) {
            boolean classicRow = row.family() == Endpoint.Family.CLASSIC;
            Account a = caller[classicRow ? 1 : 0];
            String target = Long.toString((classicRow ? strangerClassic : stranger).uid());
            // Every UID-like name at once, but the one the row really takes (its relation cells above cover that).
            RowRequests.Request req = RowRequests.of(row, a.ctx(server));
            for (String name : UID_LIKE) if (!name.equals(UID_ROWS.get(row))) req = req.withQuery(name, target);
            Reply r = req.send(a.client());
            String label = row + " naming " + target;
            assertThat(r.code()).as(label + ": " + r.raw()).isEqualTo(RowRequests.allowedCode(row));
            if (plain.containsKey(row)) {
                assertThat(r.data()).as(label + ": the caller's own data").isEqualTo(plain.get(row));
            } else {
                assertThat(strangerState(stranger, strangerClassic)).as(label + ": the stranger's state").isEqualTo(before);
                writes++;
            }
        }
        accounts.settleJobs(); // the caller's switch ends now, not inside a later test
        io.tas.support.Proof.figure("tenancy-probe %s: rows=%d names=%s (reads: the caller's own data; writes: %d stranger-state comparisons, unchanged)%n",
                kind, rows.size(), UID_LIKE, writes);
    }

    private JsonNode plainRead(Endpoint row, Account[] caller) {
        Account a = caller[row.family() == Endpoint.Family.CLASSIC ? 1 : 0];
        Reply r = RowRequests.of(row, a.ctx(server)).send(a.client());
        assertThat(r.code()).as(row + ": " + r.raw()).isEqualTo(RowRequests.allowedCode(row));
        return r.data();
    }

    private void start(String tag) {
        server = ServerPool.next(kind);
        admin = new Admin(server);
        accounts = new MatrixAccounts(server, admin, tag + "-" + kind);
    }

    private Cells.Cell cell(Endpoint row, String relation, Account caller, String param, long target, Expect expect) {
        RowRequests.Request req = new RowRequests.Request("POST", row.path(), "{\"mode\":\"basic\"}").withQuery(param, Long.toString(target));
        // The row allows one call per second per caller: each cell starts a window of its own.
        return new Cells.Cell(row + " × " + relation, expect, () -> {
            ServerPool.nextSecond(kind);
            return req.send(caller.client());
        });
    }

    private String level(Account a) {
        Reply r = a.client().get("/api/v3/account/settings");
        assertThat(r.code()).as(r.raw()).isEqualTo("00000");
        return r.data().get("accountLevel").asText();
    }

    /** Everything of the stranger's a write could touch: account, settings, balances, positions, Reality orders. */
    private String strangerState(Account unified, Account classic) {
        // The settings row allows 20 calls a second per account: a comparison that meets its limit moves the server's
        // clock on to the next second (the limiter's windows follow it) and reads again.
        Reply settings = unified.client().get("/api/v3/account/settings");
        if (settings.code().equals("429")) {
            ServerPool.nextSecond(kind);
            settings = unified.client().get("/api/v3/account/settings");
        }
        if (!settings.code().equals("00000")) throw new AssertionError("the stranger's settings: " + settings.raw());
        StringBuilder b = new StringBuilder(settings.data().toString());
        for (Account a : new Account[]{unified, classic}) {
            for (String part : new String[]{"", "/balances", "/positions"}) b.append(admin.get("/admin/v1/accounts/" + a.uid() + part).data());
        }
        return b.append(admin.get("/admin/v1/accounts/" + unified.uid() + "/reality-orders").data()).toString();
    }
}
