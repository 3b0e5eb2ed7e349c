package io.proofgate.conform;

import io.proofgate.words.Capability;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * The run as JUnit XML, the report format CI systems read: a {@code testsuite} per scenario file (or folder of
 * hand-written logs), a {@code testcase} per scenario, with {@code failure}, {@code error} or {@code skipped}. Written
 * with the JDK's StAX writer, which does the escaping.
 */
public final class JunitXml {

    private JunitXml() {}

    public static void write(Conform.Report report, Writer sink) throws IOException {
        Map<String, List<Result>> suites = new LinkedHashMap<>();
        for (Result result : report.results()) {
            suites.computeIfAbsent(result.scenario().suite(), k -> new ArrayList<>()).add(result);
        }
        try {
            XMLStreamWriter xml = XMLOutputFactory.newFactory().createXMLStreamWriter(sink);
            xml.writeStartDocument("UTF-8", "1.0");
            xml.writeCharacters("\n");
            List<String> runErrors = runErrors(report);
            xml.writeStartElement("testsuites");
            attribute(xml, "name", "proofgate conform");
            counts(xml, report.results(), runErrors.size());
            attribute(xml, "time", seconds(report.seconds()));
            xml.writeCharacters("\n");
            if (!runErrors.isEmpty()) {
                // errors of the run that no scenario's testcase holds: without them the file would read as a pass
                xml.writeStartElement("testsuite");
                attribute(xml, "name", "run");
                counts(xml, List.of(), runErrors.size());
                xml.writeCharacters("\n");
                for (String error : runErrors) {
                    xml.writeCharacters("  ");
                    xml.writeStartElement("testcase");
                    attribute(xml, "classname", "run");
                    attribute(xml, "name", "run");
                    xml.writeStartElement("error");
                    attribute(xml, "message", error);
                    xml.writeEndElement();
                    xml.writeEndElement();
                    xml.writeCharacters("\n");
                }
                xml.writeEndElement();
                xml.writeCharacters("\n");
            }
            for (var suite : suites.entrySet()) {
                xml.writeStartElement("testsuite");
                attribute(xml, "name", suite.getKey());
                counts(xml, suite.getValue(), 0);
                attribute(xml, "time", seconds(suite.getValue().stream().mapToDouble(Result::seconds).sum()));
                xml.writeCharacters("\n");
                for (Result result : suite.getValue()) {
                    testcase(xml, result);
                }
                xml.writeEndElement();
                xml.writeCharacters("\n");
            }
            xml.writeEndElement();
            xml.writeCharacters("\n");
            xml.writeEndDocument();
            xml.flush();
        } catch (XMLStreamException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /**
     * The run's errors that are no scenario's: an adapter that errs after its last answer, and a run where no scenario
     * ran (exit 2 both, never a pass).
     */
    private static List<String> runErrors(Conform.Report report) {
        List<String> errors = new ArrayList<>(report.late());
        report.nothingRan().ifPresent(errors::add);
        return errors;
    }

    private static void counts(XMLStreamWriter xml, List<Result> results, int runErrors) throws XMLStreamException {
        attribute(xml, "tests", String.valueOf(results.size() + runErrors));
        attribute(
                xml,
                "failures",
                String.valueOf(
                        results.stream()
                                .filter(r -> r instanceof Result.Failed || r instanceof Result.Unsafe)
                                .count()));
        attribute(
                xml,
                "errors",
                String.valueOf(results.stream().filter(Result.Errored.class::isInstance).count() + runErrors));
        attribute(
                xml,
                "skipped",
                String.valueOf(
                        results.stream()
                                .filter(r -> r instanceof Result.NotRun || r instanceof Result.NotApplicable)
                                .count()));
    }

    private static void testcase(XMLStreamWriter xml, Result result) throws XMLStreamException {
        Scenario scenario = result.scenario();
        xml.writeCharacters("  ");
        xml.writeStartElement("testcase");
        attribute(xml, "classname", scenario.suite().replace('/', '.'));
        attribute(xml, "name", scenario.name());
        attribute(xml, "file", scenario.file().toString());
        attribute(xml, "line", String.valueOf(scenario.line()));
        attribute(xml, "time", seconds(result.seconds()));
        switch (result) {
            case Result.Passed passed -> {}
            case Result.Failed failed -> {
                xml.writeStartElement("failure");
                attribute(xml, "type", failed.mismatch().rule());
                attribute(
                        xml,
                        "message",
                        ConformText.where(scenario, failed.mismatch(), scenario.events().size())
                                + ": "
                                + failed.mismatch().rule());
                // the body is the shortest failing prefix, whole: its events and its own first difference
                Result.Mismatch shortest = failed.shortest();
                StringBuilder text =
                        new StringBuilder("shortest failing prefix, ")
                                .append(failed.events())
                                .append(" events after the topology:\n  ")
                                .append(scenario.topology())
                                .append('\n');
                scenario.events()
                        .subList(0, failed.events())
                        .forEach(e -> text.append("  ").append(e.line()).append('\n'));
                text.append("expected ").append(ConformText.where(scenario, shortest, failed.events())).append(":\n");
                shortest.expected().forEach(line -> text.append("  ").append(line).append('\n'));
                text.append("adapter:\n");
                shortest.actual().forEach(line -> text.append("  ").append(line).append('\n'));
                xml.writeCharacters(clean(text.toString()));
                xml.writeEndElement();
            }
            case Result.Unsafe unsafe -> {
                xml.writeStartElement("failure");
                attribute(xml, "type", "unsafe");
                attribute(xml, "message", "after event " + unsafe.event() + ": " + unsafe.findings().getFirst());
                StringBuilder text =
                        new StringBuilder("shortest failing prefix, ")
                                .append(unsafe.event())
                                .append(" events after the topology:\n  ")
                                .append(scenario.topology())
                                .append('\n');
                unsafe.sent().forEach(e -> text.append("  ").append(e).append('\n'));
                text.append("the adapter ")
                        .append(unsafe.verb())
                        .append(":\n  ")
                        .append(unsafe.plan().replace("\n", "\n  "))
                        .append("\nwhich is unsafe:\n");
                unsafe.findings().forEach(f -> text.append("  ").append(f).append('\n'));
                xml.writeCharacters(clean(text.toString()));
                xml.writeEndElement();
            }
            case Result.NotRun notRun -> {
                xml.writeEmptyElement("skipped");
                attribute(
                        xml,
                        "message",
                        "needs "
                                + String.join(
                                        ", ", notRun.missing().stream().map(Capability::wireName).sorted().toList())
                                + ", which the adapter does not declare");
            }
            case Result.NotApplicable notApplicable -> {
                xml.writeEmptyElement("skipped");
                attribute(xml, "message", "not applicable: " + notApplicable.reason());
            }
            case Result.Errored errored -> {
                xml.writeStartElement("error");
                attribute(xml, "type", "adapter");
                attribute(xml, "message", errored.message());
                xml.writeEndElement();
            }
        }
        xml.writeEndElement();
        xml.writeCharacters("\n");
    }

    private static void attribute(XMLStreamWriter xml, String name, String value) throws XMLStreamException {
        xml.writeAttribute(name, clean(value));
    }

    /** XML 1.0 cannot hold every character an adapter may print: the others are written as \\uXXXX. */
    static String clean(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints()
                .forEach(
                        c -> {
                            boolean allowed =
                                    c == 0x9
                                            || c == 0xA
                                            || c == 0xD
                                            || (c >= 0x20 && c <= 0xD7FF)
                                            || (c >= 0xE000 && c <= 0xFFFD)
                                            || c >= 0x10000;
                            if (allowed) {
                                out.appendCodePoint(c);
                            } else {
                                out.append(String.format("\\u%04x", c));
                            }
                        });
        return out.toString();
    }

    private static String seconds(double seconds) {
        return String.format(java.util.Locale.ROOT, "%.3f", seconds);
    }
}
