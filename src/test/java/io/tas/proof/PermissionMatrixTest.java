package io.tas.proof;

import io.tas.api.Admin;
import io.tas.auth.Permission;
import io.tas.error.ErrorCode;
import io.tas.http.Endpoint;
import io.tas.proof.Cells.Expect;
import io.tas.proof.MatrixAccounts.Account;
import io.tas.proof.MatrixAccounts.KeySpec;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Databases;
import io.tas.support.ServerPool;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 6, permissions: every catalog row × every kind of key (read-only; read-and-write; read-and-write
 * without each permission name; IP-restricted, called from its address and from another; and the §7.2 conditions on
 * the holder: a sub-account's key, an account taken off the Reality allow-list). The expected answer comes
 * from §5 as SpecRows writes it down (expect below), never from the response; every denied cell leaves the state hash.
 * Each key kind has accounts of its own (a unified one, and a classic one for the v2 rows), so no cell shares a
 * rate-limit bucket with another and the clock stands still through the whole matrix.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class PermissionMatrixTest {
    @Parameter Databases.Kind kind;

    /** Whose key it is: a main account's; a sub-account's (§7.2 main/parent-only rows); an account taken off the Reality allow-list. */
    enum Holder { MAIN, SUB, OFF_ALLOW_LIST }

    /** A kind of key: its type and names, the loopback address its calls leave from (null: the default), and whose it is. */
    record KeyKind(String name, boolean readOnly, Set<Permission> permissions, String allowedIp, String fromIp, Holder holder) {
        KeyKind(String name, boolean readOnly, Set<Permission> permissions, String allowedIp, String fromIp) {
            this(name, readOnly, permissions, allowedIp, fromIp, Holder.MAIN);
        }

        boolean ipDenied() { return allowedIp != null && !allowedIp.equals(fromIp); }

        KeySpec spec() {
            String names = permissions.stream().map(p -> "\"" + p.wire() + "\"").collect(Collectors.joining(",", "[", "]"));
            return new KeySpec(readOnly ? "read-only" : "read-and-write", names, allowedIp == null ? null : "[\"" + allowedIp + "\"]");
        }
    }

    private static final Set<Permission> ALL = EnumSet.complementOf(EnumSet.of(Permission.NONE));
    private static final String KEY_IP = "127.0.0.3";

    static List<KeyKind> kinds() {
        List<KeyKind> kinds = new ArrayList<>();
        kinds.add(new KeyKind("read-only", true, ALL, null, null));
        kinds.add(new KeyKind("read-write", false, ALL, null, null));
        for (Permission missing : ALL) {
            Set<Permission> rest = EnumSet.copyOf(ALL);
            rest.remove(missing);
            kinds.add(new KeyKind("read-write-without-" + missing.wire(), false, rest, null, null));
        }
        kinds.add(new KeyKind("ip-restricted-from-allowed", false, ALL, KEY_IP, KEY_IP));
        kinds.add(new KeyKind("ip-restricted-from-denied", false, ALL, KEY_IP, "127.0.0.2"));
        // The caller conditions of §7.2 that hang on the account rather than the key.
        kinds.add(new KeyKind("sub-account-read-write", false, ALL, null, null, Holder.SUB));
        kinds.add(new KeyKind("off-reality-allow-list", false, ALL, null, null, Holder.OFF_ALLOW_LIST));
        return kinds;
    }

    /** §5 for one cell, in the service's guard order (D10): the IP allow-list, the permission name, then read/write. */
    static Expect expect(Endpoint row, KeyKind k) {
        SpecRows.Rule rule = SpecRows.of(row);
        if (rule.isPublic()) return Expect.allowed(RowRequests.allowedCode(row)); // §5: no authentication, any headers ignored
        if (k.ipDenied()) return Expect.denied(ErrorCode.INVALID_IP.code(), "Invalid IP");
        if (rule.permission() != Permission.NONE && !k.permissions().contains(rule.permission())) {
            return Expect.denied(ErrorCode.PERMISSION_DENIED.code(), "Incorrect permissions, need " + rule.permission().wire() + " permissions");
        }
        if (rule.write() && k.readOnly()) {
            return Expect.denied(ErrorCode.PERMISSION_DENIED.code(), "Incorrect permissions, need read-and-write permissions");
        }
        // §7.2 caller conditions, after the permission (D10): D5 gives sub-accounts 40068, D81 the allow-list 40014.
        if (k.holder() == Holder.SUB && SpecRows.MAIN_ACCOUNTS_ONLY.contains(row)) {
            return Expect.denied(ErrorCode.SUB_ACCOUNT_FORBIDDEN.code(), "Disable subaccount access");
        }
        if (k.holder() == Holder.OFF_ALLOW_LIST && SpecRows.ALLOW_LISTED_ONLY.contains(row)) {
            return Expect.denied(ErrorCode.PERMISSION_DENIED.code(), "Incorrect permissions, need reality allow-list permissions");
        }
        return Expect.allowed(RowRequests.allowedCode(row));
    }

    /** [unified, classic] accounts holding a key of kind k, each of their own (no cell shares a rate-limit bucket). */
    private static Account[] accountsOf(KeyKind k, MatrixAccounts accounts, TestServer server) {
        return switch (k.holder()) {
            case MAIN -> new Account[]{accounts.unified(k.spec(), null), accounts.classic(k.spec())};
            case SUB -> new Account[]{accounts.unified(k.spec(), accounts.parent("UNIFIED")), accounts.classic(k.spec(), accounts.parent("CLASSIC"))};
            case OFF_ALLOW_LIST -> {
                // D81's case: an order placed while on the list, then the account taken off it; the cancel row cancels it.
                Account a = accounts.unified(k.spec(), null);
                Reply placed = RowRequests.of(Endpoint.PLACE_REALITY_ORDER, a.ctx(server)).send(a.client());
                assertThat(placed.code()).as(placed.raw()).isEqualTo("00000");
                Reply off = accounts.admin().post("/admin/v1/accounts/" + a.uid() + "/reality-allow-list", "{\"allowed\":false}");
                assertThat(off.code()).as(off.raw()).isEqualTo("00000");
                yield new Account[]{a, accounts.classic(k.spec())};
            }
        };
    }

    @Test
    void everyRowTimesEveryKindOfKey() {
        TestServer server = ServerPool.next(kind);
        Admin admin = new Admin(server);
        MatrixAccounts accounts = new MatrixAccounts(server, admin, "perm-" + kind);
        List<KeyKind> kinds = kinds();
        List<Account[]> byKind = new ArrayList<>(); // [unified, classic] per kind
        for (KeyKind k : kinds) byKind.add(accountsOf(k, accounts, server));
        accounts.settleJobs();

        List<Cells.Cell> matrix = new ArrayList<>();
        for (Endpoint row : RowRequests.ordered()) {
            for (int i = 0; i < kinds.size(); i++) {
                KeyKind k = kinds.get(i);
                // The v2 rows are the classic family's: their permission is asked of a classic account (FamilyMatrixTest crosses the families).
                Account a = byKind.get(i)[row.family() == Endpoint.Family.CLASSIC ? 1 : 0];
                ApiClient client = k.fromIp() == null ? a.client() : a.client().from(k.fromIp());
                RowRequests.Request req = RowRequests.of(row, a.ctx(server));
                matrix.add(new Cells.Cell(row + " × " + k.name(), expect(row, k), () -> req.send(client)));
            }
        }
        Cells cells = new Cells(admin);
        cells.runAll(matrix);
        accounts.settleJobs();
        int rows = Endpoint.values().length;
        assertThat(cells.cells).isEqualTo(rows * kinds.size());
        assertThat(cells.denied).isPositive();
        assertThat(cells.unchanged).isEqualTo(cells.denied);
        io.tas.support.Proof.figure("permission-matrix %s: rows=%d kinds=%d cells=%d denied=%d unchanged=%d%n",
                kind, rows, kinds.size(), cells.cells, cells.denied, cells.unchanged);
    }
}
