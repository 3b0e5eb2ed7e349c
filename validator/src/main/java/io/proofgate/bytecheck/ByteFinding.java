package io.proofgate.bytecheck;

/**
 * A published or restored page whose bytes are not the content the target demands.
 *
 * @param group the group whose page it is; -1 for a plan that is not one page per group (then {@code block} is not one)
 * @param phase {@code published} (the gathered snapshot) or {@code restored} (the fresh blocks after the scatter)
 */
public record ByteFinding(
        long step, String request, int group, long block, String phase, String expected, String found) {

    /** One line: {@code step 2 request r1 group 1 block 71: published page is not ...; it holds ...}. */
    public String message() {
        return "step "
                + step
                + " request "
                + request
                + (group < 0 ? "" : " group " + group + " block " + block) // a place only where there is one
                + ": "
                + phase
                + " page is not "
                + expected
                + "; "
                + found;
    }
}
