package io.tas.ledger;

import io.tas.App;
import io.tas.admin.Provisioning;
import io.tas.admin.SeedFile.FillSpec;
import io.tas.admin.SeedFile.LedgerOp;
import io.tas.admin.SeedFile.SeedPosition;
import io.tas.admin.SeedFile.SeedTicker;
import io.tas.error.ApiException;
import io.tas.position.Position;
import io.tas.support.Databases;
import io.tas.support.MutableClock;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random sequences of deposits, adjustments, borrowing, conversions and position open/add/reduce/close,
 * with price moves in between. After every step the ledger is conserved and nothing is negative.
 * The seed is printed; replay with -Dtas.property.seed=N.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class ConservationPropertyTest {
    private static final String[] COINS = {"USDT", "BTC", "ETH", "BGB", "DOGE", "XRP", "PEPE"};
    private static final String[] DUST = {"DOGE", "XRP", "PEPE"};
    @Parameter Databases.Kind kind;

    @Test
    void everyStepKeepsTheLedgerConserved() throws Exception {
        long seed = Long.getLong("tas.property.seed", System.nanoTime());
        System.out.println("ConservationPropertyTest[" + kind + "] seed=" + seed + " (replay with -Dtas.property.seed=" + seed + ")");
        Random rnd = new Random(seed);
        try (TestServer server = TestServer.start(kind, new MutableClock(System.currentTimeMillis()), false)) {
            App app = server.app;
            io.tas.admin.MoneyAdmin p = app.admin().money();
            Provisioning provisioning = app.admin().provisioning();
            long[] uids = {1000000001L, 1000000002L};
            List<Long> open = new ArrayList<>(app.services().positions().open(1000000001L).stream().map(Position::id).toList());
            int accepted = 0, rejected = 0;
            for (int step = 0; step < 250; step++) {
                long uid = uids[rnd.nextInt(uids.length)];
                String what = "";
                try {
                    switch (rnd.nextInt(9)) {
                        case 0 -> {
                            String coin = COINS[rnd.nextInt(COINS.length)];
                            what = "deposit " + coin;
                            p.deposit(new LedgerOp(uid, pick(rnd, "unified", "spot", "otc"), coin, amount(rnd, coin), "d" + step));
                        }
                        case 1 -> {
                            String coin = COINS[rnd.nextInt(COINS.length)];
                            what = "adjust " + coin;
                            p.adjust(new LedgerOp(uid, "unified", coin, amount(rnd, coin).multiply(BigDecimal.valueOf(rnd.nextBoolean() ? 1 : -1)), "a" + step));
                        }
                        case 2 -> {
                            what = "borrow/repay";
                            p.borrow(new LedgerOp(uid, "unified", "USDT", BigDecimal.valueOf(rnd.nextInt(200) - 100).add(BigDecimal.valueOf(0.5)), "b" + step));
                        }
                        case 3 -> {
                            List<String> coins = new ArrayList<>();
                            for (String d : DUST) if (rnd.nextBoolean()) coins.add(d);
                            if (coins.isEmpty()) coins.add("DOGE");
                            what = "convert " + coins;
                            app.services().conversion().trade(uid, coins);
                        }
                        case 4 -> {
                            what = "open";
                            boolean btc = rnd.nextBoolean();
                            Position pos = p.openPosition(new SeedPosition(1000000001L, "USDT-FUTURES", btc ? "BTCUSDT" : "ETHUSDT",
                                    pick(rnd, "long", "short"), rnd.nextBoolean() ? io.tas.account.AccountEnums.MarginMode.crossed : io.tas.account.AccountEnums.MarginMode.isolated,
                                    BigDecimal.valueOf(1 + rnd.nextInt(20)), new BigDecimal(btc ? "0.00" + (1 + rnd.nextInt(9)) : "0.0" + (1 + rnd.nextInt(9))),
                                    price(rnd, btc ? 97000 : 3400), new BigDecimal("0.1" + rnd.nextInt(10)), null));
                            open.add(pos.id());
                        }
                        case 5, 6 -> {
                            if (open.isEmpty()) continue;
                            long id = open.get(rnd.nextInt(open.size()));
                            Position pos = app.services().positions().open(1000000001L).stream().filter(x -> x.id() == id).findFirst().orElse(null);
                            if (pos == null) { open.remove(Long.valueOf(id)); continue; }
                            boolean add = rnd.nextInt(3) == 0;
                            BigDecimal q = pos.size().multiply(new BigDecimal("0." + (1 + rnd.nextInt(9)))).setScale(6, java.math.RoundingMode.DOWN);
                            if (q.signum() == 0) continue;
                            what = (add ? "add " : "reduce ") + q;
                            BigDecimal px = price(rnd, pos.openPriceAvg().intValue());
                            p.fill(id, new FillSpec(add ? q : q.negate(), px, new BigDecimal("0.0" + rnd.nextInt(10)), null));
                        }
                        case 7 -> {
                            if (open.isEmpty()) continue;
                            long id = open.remove(rnd.nextInt(open.size()));
                            what = "close " + id;
                            Position pos = app.services().positions().open(1000000001L).stream().filter(x -> x.id() == id).findFirst().orElse(null);
                            if (pos == null) continue;
                            p.close(id, new FillSpec(null, price(rnd, pos.openPriceAvg().intValue()), new BigDecimal("0.05"), null));
                        }
                        default -> {
                            String sym = pick(rnd, "DOGEUSDT", "XRPUSDT", "PEPEUSDT", "BGBUSDT");
                            what = "price " + sym;
                            BigDecimal px = switch (sym) {
                                case "DOGEUSDT" -> new BigDecimal("0.3" + rnd.nextInt(100));
                                case "XRPUSDT" -> new BigDecimal("2." + rnd.nextInt(100));
                                case "PEPEUSDT" -> new BigDecimal("0.00001" + rnd.nextInt(100));
                                default -> new BigDecimal("6." + rnd.nextInt(100));
                            };
                            provisioning.putTicker(new SeedTicker("SPOT", sym, px, null, null, null, null, null, null, null, null, null, null,
                                    null, null, null, null, null, null, null, null, null));
                        }
                    }
                    accepted++;
                } catch (ApiException e) {
                    rejected++; // a refused step must change nothing: the check below proves it
                }
                Ledger.Check check = app.services().ledger().check();
                assertThat(check.ok()).as("seed=" + seed + " step " + step + " (" + what + "): " + check).isTrue();
            }
            System.out.println("ConservationPropertyTest[" + kind + "] accepted=" + accepted + " rejected=" + rejected);
            assertThat(accepted).as("the sequence must exercise the ledger").isGreaterThan(100);

            // The check itself can fail: a balance changed behind the ledger's back is reported.
            try (var c = java.sql.DriverManager.getConnection(server.db.url(), server.db.user(), "");
                 var st = c.createStatement()) {
                st.executeUpdate("update balance set available = available + 0.000000000000000001 where uid = 1000000002 and account_type = 'unified' and coin = 'USDT'");
            }
            Ledger.Check tampered = app.services().ledger().check();
            assertThat(tampered.ok()).isFalse();
            assertThat(tampered.balanceMismatches()).singleElement().asString().startsWith("1000000002/unified/USDT available");
        }
    }

    private static String pick(Random rnd, String... options) { return options[rnd.nextInt(options.length)]; }

    private static BigDecimal amount(Random rnd, String coin) {
        return switch (coin) {
            case "BTC" -> new BigDecimal("0.00" + (1 + rnd.nextInt(99)));
            case "ETH" -> new BigDecimal("0.0" + (1 + rnd.nextInt(99)));
            case "PEPE" -> BigDecimal.valueOf(1 + rnd.nextInt(200000));
            case "DOGE", "XRP" -> new BigDecimal((1 + rnd.nextInt(9)) + "." + rnd.nextInt(10));
            default -> BigDecimal.valueOf(1 + rnd.nextInt(500)).add(new BigDecimal("0.25"));
        };
    }

    private static BigDecimal price(Random rnd, int around) {
        double drift = 1 + (rnd.nextInt(200) - 100) / 1000.0; // +-10 %; test-side randomness only, money stays BigDecimal
        return BigDecimal.valueOf(Math.round(around * drift * 100)).movePointLeft(2);
    }
}
