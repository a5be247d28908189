package io.tas.bench;

/** Entry point: `java -jar bench.jar <command> [--flags]`. */
public final class Main {
    private static final String USAGE = """
            usage: java -jar bench.jar <command> [flags]
              netty-baseline --port P [--host 127.0.0.1] [--body-file F] [--threads N] [--transport auto|epoll|nio]
                             [--offload none|virtual-threads]
              load           --port P [--host H] [--path /api/v3/account/settings] [--connections 64]
                             [--method GET|POST] [--body TEMPLATE] [--n-from 2] [--n-to 20] [--alt 'A|B']
                             [--warmup-seconds 30] [--seconds 10] [--max-requests 10000000] [--threads N]
                             [--request-timeout-seconds 10] [--max-reconnects 1000] [--expect 00000 ...]
                             [--label L] [--result-file F] [--server-pid PID] [--progress-seconds 0]
                             [--aux-cpu-process NAME] [--transport auto|epoll|nio]
                             [--api-key K --api-secret S --api-passphrase P | --credentials-file F]
                             [--cursor-file F]  (each {cursor} in --path: the next line of F, cycling; connection i
                              starts at line i * lines/connections)
                             (each {n} in TEMPLATE: the next value of the cycle n-from..n-to of the connection;
                              each {alt} in TEMPLATE: the next of the |-separated --alt values, cycling per request;
                              --expect may repeat: the body must contain each; connection i signs with key i mod k)
              wrk            --port P [--path P] [--cursor-file F] [--credentials-file F | --api-key K ...]
                             [--connections 64] [--threads 2] [--warmup-seconds 20] [--seconds 10] [--label L]
                             [--result-file F] [--server-pid PID] [--aux-cpu-process NAME] [--work-dir D]
                             [--timestamp-window-seconds 30]
                             (Debian's wrk over requests pre-signed per phase; each phase <= the server's timestamp
                              window less 2 s: 28 s for the live ±30 s, longer against a sandbox's wider window)
              fetch          --port P [--host H] [--path P] [--method M] [--body T] [--out F] [--expect 00000 ...]
                             [--credentials-file F | --api-key K ...]
              provision      --admin-port A --accounts N --out F [--admin-token T] [--permission uta_mgt ...]
                             [--perm-type read-and-write] [--account-mode UNIFIED] [--username-prefix bench-]
                             [--passphrase BenchPass1]     (fresh accounts + keys via the admin API -> credentials file)
              jdbc-loop      --url JDBC_URL [--user postgres] [--threads 16] [--warmup-seconds 20] [--seconds 10]
                             [--max-requests N] [--label jdbc-loop] [--result-file F] [--aux-cpu-process postgres]
                             [--progress-seconds 0]   (needs the PostgreSQL driver on the class path)
              ingest-fills   --admin-port A [--uid 1000000005] [--count 1000000] [--batch 5000] [--concurrency 4]
                             [--path /admin/v1/records/fills] [--envelope '{"uid":{uid},"records":{records}}']
                             [--days 89] [--margin-minutes 10] [--trade-ids false] [--max-seconds 300]
                             [--admin-token T] [--expect 00000 ...] [--label L] [--result-file F]
                             [--server-pid PID] [--aux-cpu-process postgres]
                             (generated spot fills through the admin batch endpoint; wall time and fills/s)
              startup        --port P --cmd-file F [--times 5] [--timeout-seconds 120] [--path P] [--log F]
                             [--result-file F]   (starts the server command of F (one argument per line) N times:
                              process start to its first signed 200 "00000"; median, min, max)
              free-ports     [--count N]
              report         [--out F] [--header-file F] [--baseline netty-baseline] RESULT_FILE|missing:LABEL:REASON ...
            """;

    private Main() {
    }

    public static void main(String[] argv) throws Exception {
        if (argv.length == 0 || argv[0].equals("--help") || argv[0].equals("-h")) {
            System.out.print(USAGE);
            System.exit(argv.length == 0 ? 1 : 0);
        }
        Args a = new Args(argv, 1);
        int rc;
        try {
            rc = switch (argv[0]) {
                case "netty-baseline" -> BaselineServer.run(a);
                case "load" -> LoadGen.run(a);
                case "wrk" -> WrkRun.run(a);
                case "fetch" -> Fetch.run(a);
                case "startup" -> Startup.run(a);
                case "provision" -> Provision.run(a);
                case "jdbc-loop" -> JdbcLoop.run(a);
                case "ingest-fills" -> FillFeed.run(a);
                case "free-ports" -> FreePorts.run(a);
                case "report" -> Report.run(a);
                default -> {
                    System.err.print("unknown command " + argv[0] + "\n" + USAGE);
                    yield 1;
                }
            };
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.print(USAGE);
            rc = 1;
        } catch (IllegalStateException e) {
            System.err.println("error: " + e.getMessage());
            rc = 1;
        }
        System.exit(rc);
    }
}
