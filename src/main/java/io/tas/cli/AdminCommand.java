package io.tas.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.ParentCommand;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** `tas admin ...`: the admin HTTP API from the shell. Every subcommand is one admin call. */
@Command(name = "admin", mixinStandardHelpOptions = true, description = "Provision a running service through its admin API.",
        subcommands = {AdminCommand.Reset.class, AdminCommand.Seed.class, AdminCommand.CreateAccount.class,
                AdminCommand.CreateKey.class, AdminCommand.RevokeKey.class, AdminCommand.SetTicker.class,
                AdminCommand.SetInstrument.class, AdminCommand.LoanTerms.class, AdminCommand.Deposit.class,
                AdminCommand.Adjust.class, AdminCommand.Borrow.class, AdminCommand.OpenPosition.class, AdminCommand.HistoryPositions.class,
                AdminCommand.Balances.class, AdminCommand.LedgerCheck.class, AdminCommand.ClockAdvance.class,
                AdminCommand.RunDue.class, AdminCommand.StrategyOrders.class, AdminCommand.ProfitSummary.class,
                AdminCommand.IngestFills.class, AdminCommand.IngestWithdrawals.class,
                AdminCommand.IngestDeposits.class, AdminCommand.RealityAllowList.class, AdminCommand.RealityOrders.class,
                SandboxCommands.Clock.class, SandboxCommands.Snapshot.class, SandboxCommands.Faults.class, SandboxCommands.Journal.class})
public final class AdminCommand {
    @Spec CommandSpec spec;
    @Option(names = "--admin-url", defaultValue = "${env:TAS_ADMIN_URL:-http://127.0.0.1:8081}") String adminUrl;
    @Option(names = "--token", defaultValue = "${env:TAS_ADMIN_TOKEN:-tas-demo-admin-token}") String token;

    int send(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(adminUrl + path))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", contentType)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try (HttpClient c = HttpClient.newHttpClient()) {
            HttpResponse<String> res = c.send(b.build(), HttpResponse.BodyHandlers.ofString());
            spec.commandLine().getOut().println(res.body());
            return res.statusCode() == 200 ? 0 : 1;
        }
    }

    @Command(name = "reset", description = "Empty every table (sandbox reset).")
    static final class Reset implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        public Integer call() throws Exception { return admin.send("POST", "/admin/v1/reset", "application/json", null); }
    }

    @Command(name = "seed", description = "Apply a seed file (YAML or JSON).")
    static final class Seed implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        @Parameters(description = "seed file") Path file;
        public Integer call() throws Exception { return admin.send("POST", "/admin/v1/seed", "application/yaml", Files.readString(file)); }
    }

    @Command(name = "create-account", description = "Create a main account, or a sub-account with --parent.")
    static final class CreateAccount implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        @Option(names = "--json", required = true, description = "account fields as in a seed file, e.g. '{\"username\":\"alice\"}'") String json;
        @Option(names = "--parent", description = "parent UID: creates a sub-account") Long parent;
        public Integer call() throws Exception {
            return admin.send("POST", "/admin/v1/accounts" + (parent == null ? "" : "?parentUid=" + parent), "application/json", json);
        }
    }

    @Command(name = "create-key", description = "Create an API key; the secret is printed this once.")
    static final class CreateKey implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        @Option(names = "--uid", required = true) long uid;
        @Option(names = "--passphrase", required = true) String passphrase;
        @Option(names = "--perm-type", defaultValue = "read-and-write") String permType;
        @Option(names = "--permissions", split = ",", defaultValue = "uta_mgt,uta_trade") String[] permissions;
        @Option(names = "--ips", split = ",") String[] ips;
        @Option(names = "--label", defaultValue = "") String label;
        public Integer call() throws Exception {
            var body = new java.util.LinkedHashMap<String, Object>();
            body.put("uid", uid);
            body.put("passphrase", passphrase);
            body.put("permType", permType);
            body.put("permissions", permissions);
            body.put("ips", ips == null ? new String[0] : ips);
            body.put("label", label);
            return admin.send("POST", "/admin/v1/keys", "application/json", io.tas.http.Json.MAPPER.writeValueAsString(body));
        }
    }

    @Command(name = "revoke-key", description = "Revoke an API key.")
    static final class RevokeKey implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        @Parameters(description = "ACCESS-KEY") String accessKey;
        public Integer call() throws Exception { return admin.send("POST", "/admin/v1/keys/" + accessKey + "/revoke", "application/json", null); }
    }

    @Command(name = "set-ticker", description = "Create or replace a ticker.")
    static final class SetTicker implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        @Option(names = "--json", required = true, description = "ticker fields, e.g. '{\"category\":\"SPOT\",\"symbol\":\"BTCUSDT\",\"lastPrice\":\"97000\"}'") String json;
        public Integer call() throws Exception { return admin.send("POST", "/admin/v1/tickers", "application/json", json); }
    }

    /** A subcommand that posts its --json to one admin path. */
    abstract static class PostJson implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        @Option(names = "--json", required = true, description = "the request body, fields as in a seed file") String json;
        abstract String path();
        public Integer call() throws Exception { return admin.send("POST", path(), "application/json", json); }
    }

    @Command(name = "set-instrument", description = "Create or replace an instrument, e.g. '{\"category\":\"SPOT\",\"symbol\":\"SOLUSDT\",\"baseCoin\":\"SOL\",\"quoteCoin\":\"USDT\"}'.")
    static final class SetInstrument extends PostJson { String path() { return "/admin/v1/instruments"; } }

    @Command(name = "loan-terms", description = "Set a coin's borrowing terms: {coin, interestFreeAmount, hourlyRate}.")
    static final class LoanTerms extends PostJson { String path() { return "/admin/v1/loan-terms"; } }

    @Command(name = "deposit", description = "Deposit through the ledger: {uid, account, coin, amount, ref} (idempotent per ref).")
    static final class Deposit extends PostJson { String path() { return "/admin/v1/ledger/deposit"; } }

    @Command(name = "adjust", description = "Adjust a balance by a signed amount: {uid, account, coin, amount, ref}.")
    static final class Adjust extends PostJson { String path() { return "/admin/v1/ledger/adjust"; } }

    @Command(name = "borrow", description = "Borrow (amount > 0) or repay (< 0) in the unified account: {uid, coin, amount, ref}.")
    static final class Borrow extends PostJson { String path() { return "/admin/v1/ledger/borrow"; } }

    @Command(name = "open-position", description = "Open a futures position: {uid, category, symbol, holdSide, marginMode, leverage, size, price, fee, ref}; ref (optional) makes a retry answer the position instead of opening again.")
    static final class OpenPosition extends PostJson { String path() { return "/admin/v1/positions"; } }

    @Command(name = "history-positions", description = "Ingest closed (history) positions, all or nothing: {records: [{uid, category, symbol, holdSide, openAvgPrice, closeAvgPrice, openTotalPos, closeTotalPos, pnl, netProfit, totalFunding, openFee, closeFee, ctime, utime}]}; --file reads the body from a file.")
    static final class HistoryPositions implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        @Option(names = "--json", description = "the request body") String json;
        @Option(names = "--file", description = "a file with the request body (JSON)") Path file;
        public Integer call() throws Exception {
            if ((json == null) == (file == null)) throw new picocli.CommandLine.ParameterException(admin.spec.commandLine(), "give exactly one of --json and --file");
            return admin.send("POST", "/admin/v1/records/history-positions", "application/json", json != null ? json : Files.readString(file));
        }
    }

    @Command(name = "strategy-orders", description = "Ingest a batch of one unified account's strategy orders, all or nothing: "
            + "{uid, records: [{type, category, symbol, qty, posSide, status, ...}]} from --json or --file.")
    static final class StrategyOrders implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        @Option(names = "--json", description = "the batch as JSON") String json;
        @Option(names = "--file", description = "a file holding the batch (JSON)") Path file;
        public Integer call() throws Exception {
            if ((json == null) == (file == null)) throw new picocli.CommandLine.ParameterException(admin.spec.commandLine(), "give one of --json or --file");
            return admin.send("POST", "/admin/v1/records/strategy-orders", "application/json", json != null ? json : Files.readString(file));
        }
    }

    @Command(name = "profit-summary", description = "Set an account's copy-trading profit summary: {uid, totalProfit, totalAllocatedProfit, totalPendingProfit}.")
    static final class ProfitSummary extends PostJson { String path() { return "/admin/v1/records/profit-summary"; } }

    @Command(name = "balances", description = "Show an account's balances.")
    static final class Balances implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        @Parameters(description = "UID") long uid;
        public Integer call() throws Exception { return admin.send("GET", "/admin/v1/accounts/" + uid + "/balances", "application/json", null); }
    }

    @Command(name = "ledger-check", description = "Prove conservation: balances equal the journal, nothing negative.")
    static final class LedgerCheck implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        public Integer call() throws Exception { return admin.send("GET", "/admin/v1/ledger/check", "application/json", null); }
    }

    @Command(name = "clock-advance", description = "Move a sandbox's clock forward by MS milliseconds (e.g. 60000 finishes an account switch); --run-due then runs the jobs that are due.")
    static final class ClockAdvance implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        @Parameters(description = "milliseconds, 1 to 10 years") long ms;
        @Option(names = "--run-due", description = "run the jobs due at the new time before returning") boolean runDue;
        public Integer call() throws Exception {
            int exit = admin.send("POST", "/admin/v1/sandbox/clock/advance", "application/json", "{\"ms\":" + ms + "}");
            return exit != 0 || !runDue ? exit : admin.send("POST", "/admin/v1/jobs/run-due", "application/json", null);
        }
    }

    @Command(name = "run-due", description = "Run the jobs that are due now (e.g. an account switch) instead of at the next poll.")
    static final class RunDue implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        public Integer call() throws Exception { return admin.send("POST", "/admin/v1/jobs/run-due", "application/json", null); }
    }

    /** A subcommand that sends a file of records (a JSON array) as one batch for --uid. */
    abstract static class Ingest implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        @Option(names = "--uid", required = true, description = "the account the records belong to") long uid;
        @Parameters(description = "a JSON array of records (at most 10,000), fields as in §2.17 / §2.18 (deposits: beyond-spec shapes §10) plus optional \"ago\"") Path file;
        abstract String path();
        public Integer call() throws Exception {
            String records = Files.readString(file).strip();
            if (!records.startsWith("[")) throw new picocli.CommandLine.ParameterException(admin.spec.commandLine(), "the file must hold a JSON array of records");
            return admin.send("POST", path(), "application/json", "{\"uid\":" + uid + ",\"records\":" + records + "}");
        }
    }

    @Command(name = "ingest-fills", description = "Store fills (§2.17; a unified account's may name a category and execPnl), all or nothing: --uid UID FILE.json.")
    static final class IngestFills extends Ingest { String path() { return "/admin/v1/records/fills"; } }

    @Command(name = "ingest-withdrawals", description = "Store withdrawal records (§2.18) of an account, all or nothing: --uid UID FILE.json.")
    static final class IngestWithdrawals extends Ingest { String path() { return "/admin/v1/records/withdrawals"; } }

    @Command(name = "ingest-deposits", description = "Store deposit records of a unified account, all or nothing: --uid UID FILE.json.")
    static final class IngestDeposits extends Ingest { String path() { return "/admin/v1/records/deposits"; } }

    @Command(name = "reality-allow", description = "Put an account on the Reality order allow-list (§4.7), or take it off with --off.")
    static final class RealityAllowList implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        @Parameters(description = "UID") long uid;
        @Option(names = "--off", description = "take the account off the allow-list") boolean off;
        public Integer call() throws Exception {
            return admin.send("POST", "/admin/v1/accounts/" + uid + "/reality-allow-list", "application/json", "{\"allowed\":" + !off + "}");
        }
    }

    @Command(name = "reality-orders", description = "Show an account's Reality orders (§4.7), newest first.")
    static final class RealityOrders implements Callable<Integer> {
        @ParentCommand AdminCommand admin;
        @Parameters(description = "UID") long uid;
        public Integer call() throws Exception { return admin.send("GET", "/admin/v1/accounts/" + uid + "/reality-orders", "application/json", null); }
    }
}
