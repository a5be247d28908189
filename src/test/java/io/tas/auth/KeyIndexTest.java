package io.tas.auth;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The index never misses a live key, also when keys are created or revoked while it reloads. */
class KeyIndexTest {
    final KeyIndex index = new KeyIndex();

    @Test
    void anUnloadedIndexLetsTheDatabaseDecide() {
        assertThat(index.loaded()).isFalse();
        assertThat(index.mayBeLive("bg_anything")).isTrue();
        index.reload(() -> List.of("bg_a"));
        assertThat(index.mayBeLive("bg_a")).isTrue();
        assertThat(index.mayBeLive("bg_b")).isFalse();
    }

    @Test
    void changesMadeWhileAReloadReadsAreKept() {
        index.reload(() -> List.of("bg_old", "bg_revoked"));
        index.reload(() -> {
            // A create committed after the read began, and a revocation the read did not see yet.
            index.add("bg_new");
            index.remove("bg_revoked");
            return List.of("bg_old", "bg_revoked");
        });
        assertThat(index.mayBeLive("bg_new")).isTrue();
        assertThat(index.mayBeLive("bg_revoked")).isFalse();
        assertThat(index.mayBeLive("bg_old")).isTrue();
        assertThat(index.size()).isEqualTo(2);
    }

    @Test
    void aFailedReloadUnloadsTheIndexRatherThanKeepingAStaleOne() {
        index.reload(() -> List.of("bg_a"));
        assertThatThrownBy(() -> index.reload(() -> { throw new IllegalStateException("database down"); }))
                .hasMessage("database down");
        assertThat(index.loaded()).isFalse();
        assertThat(index.mayBeLive("bg_created_elsewhere")).isTrue();
    }
}
