package io.tas.proof;

import io.tas.api.Admin;
import io.tas.error.ErrorCode;
import io.tas.http.Endpoint;
import io.tas.proof.Cells.Expect;
import io.tas.proof.MatrixAccounts.Account;
import io.tas.proof.MatrixAccounts.KeySpec;
import io.tas.support.Databases;
import io.tas.support.ServerPool;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 6, account family: a unified and a classic account, each with a key holding every permission, on every
 * catalog row. §9.1: /api/v3 is the unified interface, /api/v2 the classic kind's; D6 gives the platform's answers to
 * the wrong family (40084 a classic account on a v3 unified row, 40085 a unified account on a v2 row) and the rows open
 * to both. ErrorsApiTest checks the wrong-family answers alone; this is the full cross, with the allowed cells answered
 * by the rows themselves and every refused cell leaving the state hash as it was.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class FamilyMatrixTest {
    @Parameter Databases.Kind kind;

    enum AccountFamily { UNIFIED, CLASSIC }

    /** D6 rows open to both kinds: account/info, switch-status, the profit summary, and the public rows. */
    private static final List<Endpoint> OPEN_TO_BOTH = List.of(Endpoint.ACCOUNT_INFO, Endpoint.SWITCH_STATUS, Endpoint.PROFIT_SUMMARY);

    /** D6 and §9.1: the row's family from its path, the rows open to both from D6's list, not from the catalog. */
    static Expect expect(Endpoint row, AccountFamily f) {
        if (SpecRows.of(row).isPublic() || OPEN_TO_BOTH.contains(row)) return Expect.allowed(RowRequests.allowedCode(row));
        boolean v3 = row.path().startsWith("/api/v3/");
        if (v3 && f == AccountFamily.CLASSIC) {
            return Expect.denied(ErrorCode.CLASSIC_ACCOUNT_ON_UNIFIED_API.code(), ErrorCode.CLASSIC_ACCOUNT_ON_UNIFIED_API.message());
        }
        if (!v3 && f == AccountFamily.UNIFIED) {
            return Expect.denied(ErrorCode.UNIFIED_ACCOUNT_ON_CLASSIC_API.code(), ErrorCode.UNIFIED_ACCOUNT_ON_CLASSIC_API.message());
        }
        return Expect.allowed(RowRequests.allowedCode(row));
    }

    @Test
    void everyRowTimesBothAccountFamilies() {
        TestServer server = ServerPool.next(kind);
        Admin admin = new Admin(server);
        MatrixAccounts accounts = new MatrixAccounts(server, admin, "family-" + kind);
        Account unified = accounts.unified(KeySpec.FULL, null);
        Account classic = accounts.classic(KeySpec.FULL);
        accounts.settleJobs();
        List<Cells.Cell> matrix = new ArrayList<>();
        for (Endpoint row : RowRequests.ordered()) {
            for (AccountFamily f : AccountFamily.values()) {
                Account a = f == AccountFamily.UNIFIED ? unified : classic;
                RowRequests.Request req = RowRequests.of(row, a.ctx(server));
                matrix.add(new Cells.Cell(row + " × " + f, expect(row, f), () -> req.send(a.client())));
            }
        }
        Cells cells = new Cells(admin);
        cells.runAll(matrix);
        accounts.settleJobs();
        int rows = Endpoint.values().length;
        assertThat(cells.cells).isEqualTo(2 * rows);
        assertThat(cells.unchanged).isEqualTo(cells.denied).isPositive();
        io.tas.support.Proof.figure("family-matrix %s: rows=%d families=2 cells=%d denied=%d unchanged=%d%n",
                kind, rows, cells.cells, cells.denied, cells.unchanged);
    }
}
