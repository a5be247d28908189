package io.tas.common;

import io.tas.common.TimeWindow.Range;
import io.tas.error.ApiException;
import io.tas.http.Endpoint;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The bounds TimeWindow reads for each shape of query (D137), computed here by hand; HistoryWindowsApiTest checks the
 * answers of every row on a server.
 */
class TimeWindowTest {
    private static final long DAY = 86_400_000L;
    private static final long NOW = 1_767_225_600_000L;

    @Test
    void aLoneEndReadsTheLongestRangeUpToItClippedToTheAccessWindow() {
        // 30-day row: 61 days old reads [90, 61] days ago (the range would start 91 days ago).
        assertThat(TimeWindow.HISTORY_POSITION_V3.resolve(null, NOW - 61 * DAY, NOW)).isEqualTo(new Range(NOW - 90 * DAY, NOW - 61 * DAY));
        assertThat(TimeWindow.HISTORY_POSITION_V3.resolve(null, NOW - DAY, NOW)).isEqualTo(new Range(NOW - 31 * DAY, NOW - DAY));
        // 90-day row: any end before now reads from the window's start.
        assertThat(TimeWindow.HISTORY_STRATEGY_ORDERS.resolve(null, NOW - 1, NOW)).isEqualTo(new Range(NOW - 90 * DAY, NOW - 1));
        assertThat(TimeWindow.HISTORY_STRATEGY_ORDERS.resolve(null, NOW - 90 * DAY, NOW)).isEqualTo(new Range(NOW - 90 * DAY, NOW - 90 * DAY));
        assertThatThrownBy(() -> TimeWindow.HISTORY_STRATEGY_ORDERS.resolve(null, NOW - 90 * DAY - 1, NOW))
                .isInstanceOf(ApiException.class).hasMessage("Parameter verification failed endTime is older than 90 days");
        // A clamping row answers an end before the window with nothing.
        assertThat(TimeWindow.SPOT_FILLS.resolve(null, NOW - 90 * DAY - 1, NOW).isEmpty()).isTrue();
    }

    @Test
    void aLoneStartReadsTheLongestRangeFromIt() {
        assertThat(TimeWindow.UTA_FILLS.resolve(NOW - 50 * DAY, null, NOW)).isEqualTo(new Range(NOW - 50 * DAY, NOW - 20 * DAY));
        assertThat(TimeWindow.UTA_FILLS.resolve(NOW + DAY, null, NOW)).isEqualTo(new Range(NOW + DAY, NOW + 31 * DAY));
        // Clamped first, then the range: a start 100 days old on v2 reads the whole 90 days up to now.
        assertThat(TimeWindow.HISTORY_POSITION_V2.resolve(NOW - 100 * DAY, null, NOW)).isEqualTo(new Range(NOW - 90 * DAY, NOW));
        assertThatThrownBy(() -> TimeWindow.SMALL_ASSETS_HISTORY.resolve(NOW - 90 * DAY - 1, null, NOW))
                .hasMessage("Parameter verification failed startTime is older than 90 days");
    }

    @Test
    void neitherReadsTheLongestRangeEndingNow() {
        assertThat(TimeWindow.SMALL_ASSETS_HISTORY.resolve(null, null, NOW)).isEqualTo(new Range(NOW - 30 * DAY, NOW));
        assertThat(TimeWindow.SPOT_FILLS.resolve(null, null, NOW)).isEqualTo(new Range(NOW - 90 * DAY, NOW));
        assertThatThrownBy(() -> TimeWindow.UTA_DEPOSIT_RECORDS.resolve(null, null, NOW)).hasMessage("Parameter startTime,endTime cannot be empty");
        assertThatThrownBy(() -> TimeWindow.WITHDRAWAL_RECORDS.resolve(1L, null, NOW)).hasMessage("Parameter endTime cannot be empty");
    }

    @Test
    void bothAreCheckedAsSent() {
        assertThat(TimeWindow.HISTORY_POSITION_V3.resolve(NOW - 30 * DAY, NOW, NOW)).isEqualTo(new Range(NOW - 30 * DAY, NOW));
        assertThatThrownBy(() -> TimeWindow.HISTORY_POSITION_V3.resolve(NOW - 30 * DAY - 1, NOW, NOW))
                .hasMessage("Parameter verification failed time range between startTime and endTime exceeds 30 days");
        assertThatThrownBy(() -> TimeWindow.UTA_WITHDRAWAL_RECORDS.resolve(2L, 1L, NOW)).hasMessage("Parameter verification failed startTime is after endTime");
        assertThat(TimeWindow.UTA_WITHDRAWAL_RECORDS.resolve(0L, Long.MAX_VALUE, NOW)).isEqualTo(new Range(0, Long.MAX_VALUE));
        // An old start with a recent end: moved up on a clamping row.
        assertThat(TimeWindow.SPOT_FILLS.resolve(NOW - 95 * DAY, NOW - 10 * DAY, NOW)).isEqualTo(new Range(NOW - 90 * DAY, NOW - 10 * DAY));
    }

    @Test
    void extremeTimesNeitherWrapNorThrowAnythingButARefusal() {
        for (TimeWindow w : TimeWindow.values()) {
            long[] extremes = {Long.MIN_VALUE, -1, 0, Long.MAX_VALUE};
            for (long a : extremes) {
                for (long b : extremes) {
                    try {
                        Range r = w.resolve(a, b, NOW);
                        assertThat(r.from()).as(w + " " + a + ".." + b).isGreaterThanOrEqualTo(a);
                        assertThat(r.to()).isEqualTo(b);
                    } catch (ApiException e) {
                        assertThat(e.error().code()).isEqualTo("40017");
                    }
                }
                try {
                    Range lone = w.resolve(a, null, NOW);
                    assertThat(lone.to()).as(w + " from " + a).isGreaterThanOrEqualTo(lone.from());
                } catch (ApiException e) {
                    assertThat(e.error().code()).isIn("40017", "40019");
                }
            }
        }
    }

    /** Each rule is named as the catalog row it serves, a GET row. */
    @Test
    void everyRuleIsACatalogRow() {
        for (TimeWindow w : TimeWindow.values()) assertThat(Endpoint.valueOf(w.name()).method()).isEqualTo("GET");
    }
}
