package io.tas.trade;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * D219: a sweep's accounts split into at least two groups of about equal crossed orders, each at most a page, each
 * account in one group, in uid order; none for a small sweep.
 */
class SweepGroupsTest {
    private static TreeMap<Long, Integer> accounts(int n, int ordersEach) {
        TreeMap<Long, Integer> m = new TreeMap<>();
        for (long uid = 1; uid <= n; uid++) m.put(uid, ordersEach);
        return m;
    }

    @Test
    void groupsHoldAtMostAPageAndEveryAccountOnce() {
        TreeMap<Long, Integer> crossed = new TreeMap<>();
        // 1,802 orders: two groups wanted, of about 901. 400 + 400 = 800, and 300 more would pass the page of 1,000:
        // closed at 800. 300 + 1 + 400 + 299 = 1,000 reaches 901: closed. What is left, a group of its own.
        crossed.put(5L, 400);
        crossed.put(7L, 400);
        crossed.put(9L, 300);
        crossed.put(11L, 1);
        crossed.put(12L, 400);
        crossed.put(20L, 299);
        crossed.put(30L, 2);
        assertThat(TradingService.accountGroups(crossed)).containsExactly(List.of(5L, 7L), List.of(9L, 11L, 12L, 20L), List.of(30L));
    }

    @Test
    void aSweepIsSplitEvenly() {
        // 1,200 orders of 8 accounts: two groups of 600, not a page and the rest.
        assertThat(TradingService.accountGroups(accounts(8, 150))).containsExactly(List.of(1L, 2L, 3L, 4L), List.of(5L, 6L, 7L, 8L));
        // 10,000 of 100 accounts: ten pages of 10 accounts.
        List<List<Long>> groups = TradingService.accountGroups(accounts(100, 100));
        assertThat(groups).hasSize(10).allSatisfy(g -> assertThat(g).hasSize(10));
        assertThat(groups.stream().flatMap(List::stream).toList()).isEqualTo(accounts(100, 100).keySet().stream().toList());
    }

    @Test
    void aSmallSweepStaysOnOneThread() {
        assertThat(TradingService.accountGroups(accounts(10, 19))).as("190 orders").isEmpty();
        assertThat(TradingService.accountGroups(accounts(2, 100))).as("200 orders").containsExactly(List.of(1L), List.of(2L));
        assertThat(TradingService.accountGroups(new TreeMap<>())).isEmpty();
    }
}
