package io.tas.http;

import io.tas.error.ApiException;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParamsTest {
    private static Params params(Map<String, String> query) {
        return new ApiRequest(Endpoint.SUB_LIST, null, query, null, "127.0.0.1", 0).params();
    }

    @Test
    void missingParametersAreNamedTogetherLikeThePlatform() {
        assertThatThrownBy(() -> params(Map.of("coin", "BTC")).require("symbol", "coin", "category"))
                .isInstanceOf(ApiException.class)
                .hasMessage("Parameter symbol,category cannot be empty")
                .extracting(e -> ((ApiException) e).error().code()).isEqualTo("40019");
    }

    @Test
    void numbersAreBoundedAndStrict() {
        assertThat(params(Map.of()).intInRange("limit", 100, 1, 100)).isEqualTo(100);
        assertThat(params(Map.of("limit", "7")).intInRange("limit", 100, 1, 100)).isEqualTo(7);
        for (String bad : new String[]{"0", "101", "1.0", " 5", "1e2", "99999999999"}) {
            assertThatThrownBy(() -> params(Map.of("limit", bad)).intInRange("limit", 100, 1, 100))
                    .as(bad).hasMessage("Parameter limit error");
        }
    }

    @Test
    void decimalsArePlainAndNeverFloatingPoint() {
        assertThat(params(Map.of("amount", "0.000000000000000001")).decimal("amount")).isEqualByComparingTo("1E-18");
        for (String bad : new String[]{"1e5", "NaN", "Infinity", "1.", ".5", "0x10"}) {
            assertThatThrownBy(() -> params(Map.of("amount", bad)).decimal("amount")).as(bad).hasMessage("Parameter amount error");
        }
    }
}
