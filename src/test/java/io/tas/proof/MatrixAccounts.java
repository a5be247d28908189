package io.tas.proof;

import io.tas.api.Admin;
import io.tas.support.ApiClient;
import io.tas.support.ApiClient.Reply;
import io.tas.support.Credentials;
import io.tas.support.TestServer;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fresh accounts for the matrices (never the shared demo ones: the matrices switch, convert and place orders).
 * A prepared unified account can pass every row's own checks: 1000 USDT and 12.5 DOGE (a small asset) in unified,
 * delta-neutral on (delta-info, D50), on the Reality allow-list (§4.7), and one isolated BTCUSDT long (set-margin;
 * it also makes a requested switch to classic fail, so the account stays unified). A classic one holds 1000 USDT of spot and 1000 of futures margin.
 */
final class MatrixAccounts {
    static final String ALL_PERMISSIONS = "[\"uta_mgt\",\"uta_trade\",\"withdraw\",\"copy_futures_position\",\"copy_futures_order\"]";
    private static final AtomicInteger NAMES = new AtomicInteger();

    /** One account and a key of it; orderRef roots the clientOids of its orders (RowRequests). */
    record Account(long uid, Credentials creds, ApiClient client, String orderRef) {
        RowRequests.Ctx ctx(TestServer server) { return new RowRequests.Ctx(server.clock.millis(), orderRef); }
    }

    /** A key of an account: read-only or read-and-write, its permission names, and the addresses it answers from (null: any). */
    record KeySpec(String permType, String permissionsJson, String ipsJson) {
        static final KeySpec FULL = new KeySpec("read-and-write", ALL_PERMISSIONS, null);
    }

    private final TestServer server;
    private final Admin admin;
    private final String tag;

    MatrixAccounts(TestServer server, Admin admin, String tag) {
        this.server = server;
        this.admin = admin;
        this.tag = tag;
    }

    Admin admin() { return admin; }

    /** Admin.settleJobs: no switch job lands inside a matrix's hash comparisons, none of its own in a later test's. */
    void settleJobs() { admin.settleJobs(); }

    /** A prepared unified account (a sub-account of parentUid when given) with a key as spec says. */
    Account unified(KeySpec spec, Long parentUid) { return unified(spec, parentUid, true); }

    /** As unified(spec, parentUid), on the Reality allow-list or not. */
    Account unified(KeySpec spec, Long parentUid, boolean allowListed) {
        long uid = create("{\"username\":\"" + name() + "\",\"realityAllowed\":" + allowListed + ","
                + "\"settings\":{\"accountLevel\":\"advanced\",\"deltaSwitch\":\"yes\"}}", parentUid);
        admin.deposit(uid, "unified", "USDT", "1000");
        admin.deposit(uid, "unified", "DOGE", "12.5");
        Reply open = admin.post("/admin/v1/positions", "{\"uid\":" + uid + ",\"category\":\"USDT-FUTURES\",\"symbol\":\"BTCUSDT\","
                + "\"holdSide\":\"long\",\"marginMode\":\"isolated\",\"leverage\":\"10\",\"size\":\"0.01\",\"price\":\"90000\",\"fee\":\"0\"}");
        if (!open.code().equals("00000")) throw new AssertionError(open.raw());
        return withKey(uid, spec);
    }

    /** A classic main account (the v2 rows' family) with a key as spec says. */
    Account classic(KeySpec spec) { return classic(spec, null); }

    /** A classic account, a sub-account of parentUid when given. */
    Account classic(KeySpec spec, Long parentUid) {
        long uid = create("{\"username\":\"" + name() + "\",\"accountMode\":\"CLASSIC\"}", parentUid);
        admin.deposit(uid, "spot", "USDT", "1000"); // the classic spot order rows (issue 26) freeze from it
        admin.deposit(uid, "unified", "USDT", "1000"); // and the classic futures rows from its margin (D171)
        return withKey(uid, spec);
    }

    /** A bare main account of the given kind (UNIFIED or CLASSIC), a parent for sub-accounts. */
    long parent(String accountMode) {
        return create("{\"username\":\"" + name() + "\",\"accountMode\":\"" + accountMode + "\"}", null);
    }

    /** Another key of an existing account. */
    Account withKey(long uid, KeySpec spec) {
        String key = spec.ipsJson() == null ? admin.createKey(uid, "Matrix1", spec.permType(), spec.permissionsJson())
                : admin.createKey(uid, "Matrix1", spec.permType(), spec.permissionsJson(), spec.ipsJson());
        Credentials c = new Credentials(key, admin.lastSecret, "Matrix1");
        return new Account(uid, c, server.client(c), "m" + uid);
    }

    private long create(String json, Long parentUid) {
        Reply r = admin.post("/admin/v1/accounts" + (parentUid == null ? "" : "?parentUid=" + parentUid), json);
        if (!r.code().equals("00000")) throw new AssertionError(r.raw());
        return r.data().get("uid").asLong();
    }

    private String name() { return tag + "-" + NAMES.incrementAndGet(); }
}
