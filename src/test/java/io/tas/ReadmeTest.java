package io.tas;

import io.tas.cli.EndpointInventory;
import io.tas.error.ErrorCode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's inventory and error table are derived from code; these checks keep them from drifting. */
class ReadmeTest {
    private static String section(String name) throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        String start = "<!-- " + name + ":start -->\n";
        int s = readme.indexOf(start);
        int e = readme.indexOf("<!-- " + name + ":end -->");
        assertThat(s).as(name + " markers").isNotNegative();
        return readme.substring(s + start.length(), e);
    }

    @Test
    void inventoryIsTheCatalog() throws IOException {
        assertThat(section("inventory")).isEqualTo(EndpointInventory.markdown(App.productionRoutes()));
    }

    @Test
    void catalogHasThirtySpecRows() {
        assertThat(java.util.Arrays.stream(io.tas.http.Endpoint.values()).filter(io.tas.http.Endpoint::inSpec).count()).isEqualTo(30);
    }

    @Test
    void everyErrorCodeIsInTheErrorTableWithItsStatusAndMessage() throws IOException {
        String table = section("errors");
        for (ErrorCode c : ErrorCode.values()) {
            assertThat(table).as(c.name()).contains("| " + c.code() + " | " + c.httpStatus() + " | " + c.template() + " |");
        }
    }
}
