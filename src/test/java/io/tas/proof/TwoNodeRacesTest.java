package io.tas.proof;

import io.tas.api.TwoNodesTest;
import org.junit.jupiter.api.Test;

import java.util.List;

/**
 * Issue 12 item 3 on two nodes over one PostgreSQL database: every race of {@link Races} with its clients dealt
 * alternately to node a and node b, so the only thing that can serialise them is the database. Each race asserts
 * its outcome (exactly K, one order per clientOid, a consistent position) and conservation, and prints its PROOF line.
 */
class TwoNodeRacesTest extends TwoNodesTest {
    private static final String WHERE = "POSTGRES 2 nodes";

    @Test
    void sixtyFourClientsDebitingOneAccountExactlyKSucceed() throws Exception {
        io.tas.support.Proof.print(Races.debits(List.of(a, b), 64, 8).proof(WHERE));
    }

    @Test
    void setMarginAgainstSetLeverageLeavesThePositionConsistent() throws Exception {
        io.tas.support.Proof.print(Races.marginAgainstLeverage(List.of(a, b), 32).proof(WHERE));
    }

    @Test
    void aClientOidReplayedFromBothNodesMakesOneOrder() throws Exception {
        io.tas.support.Proof.print(Races.clientOidReplay(List.of(a, b), 32, 10).proof(WHERE));
    }
}
