package io.proofgate.tlc;

import io.proofgate.parse.ParseException;
import io.proofgate.value.TlaState;
import io.proofgate.value.TlaValueParser;
import io.proofgate.value.TlaValueReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.antlr.v4.runtime.Token;

/** Reads a {@code -simulate} trace module with TlaValue's {@code traceModule} rule. */
public final class SimulationTraceReader {
    private SimulationTraceReader() {
    }

    public static SimulationTrace read(Path file) throws IOException {
        return read(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
    }

    public static SimulationTrace read(String source, String text) {
        TlaValueParser parser = TlaValueReader.newParser(source, text);
        TlaValueParser.TraceModuleContext module = parser.traceModule();
        List<TlaState> states = new ArrayList<>();
        for (TlaValueParser.StateDefinitionContext def : module.stateDefinition()) {
            String expected = "STATE_" + (states.size() + 1);
            Token name = def.IDENT().getSymbol();
            if (!name.getText().equals(expected)) {
                throw new ParseException(source, name.getLine(), name.getCharPositionInLine(),
                        "expected " + expected + ", found " + name.getText());
            }
            states.add(TlaValueReader.state(source, def.stateFormula()));
        }
        return new SimulationTrace(moduleName(module.MODULE_HEADER().getText()), states);
    }

    /** "---------------- MODULE sim/trace_0_0 -----------------": the third word. */
    private static String moduleName(String header) {
        return header.strip().split("[ \t]+")[2];
    }
}
