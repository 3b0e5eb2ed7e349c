package io.proofgate.conform;

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
 * The run as JUnit XML, the report format CI systems read: a {@code testsuite} per scenario file
 * (or folder of hand-written logs), a {@code testcase} per scenario, with {@code failure},
 * {@code error} or {@code skipped}. Written with the JDK's StAX writer, which does the escaping.
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
            xml.writeStartElement("testsuites");
            xml.writeAttribute("name", "proofgate conform");
            counts(xml, report.results());
            xml.writeAttribute("time", seconds(report.seconds()));
            xml.writeCharacters("\n");
            for (var suite : suites.entrySet()) {
                xml.writeStartElement("testsuite");
                xml.writeAttribute("name", suite.getKey());
                counts(xml, suite.getValue());
                xml.writeAttribute("time", seconds(suite.getValue().stream().mapToDouble(Result::seconds).sum()));
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

    private static void counts(XMLStreamWriter xml, List<Result> results) throws XMLStreamException {
        xml.writeAttribute("tests", String.valueOf(results.size()));
        xml.writeAttribute("failures", String.valueOf(results.stream().filter(Result.Failed.class::isInstance).count()));
        xml.writeAttribute("errors", String.valueOf(results.stream().filter(Result.Errored.class::isInstance).count()));
        xml.writeAttribute("skipped", String.valueOf(results.stream().filter(Result.NotRun.class::isInstance).count()));
    }

    private static void testcase(XMLStreamWriter xml, Result result) throws XMLStreamException {
        Scenario scenario = result.scenario();
        xml.writeCharacters("  ");
        xml.writeStartElement("testcase");
        xml.writeAttribute("classname", scenario.suite().replace('/', '.'));
        xml.writeAttribute("name", scenario.name());
        xml.writeAttribute("file", scenario.file().toString());
        xml.writeAttribute("line", String.valueOf(scenario.line()));
        xml.writeAttribute("time", seconds(result.seconds()));
        switch (result) {
            case Result.Passed passed -> { }
            case Result.Failed failed -> {
                xml.writeStartElement("failure");
                xml.writeAttribute("type", failed.mismatch().rule());
                xml.writeAttribute("message", ConformText.where(scenario, failed.mismatch(), scenario.events().size()) + ": "
                        + failed.mismatch().rule());
                StringBuilder text = new StringBuilder("expected:\n");
                failed.mismatch().expected().forEach(line -> text.append("  ").append(line).append('\n'));
                text.append("adapter:\n");
                failed.mismatch().actual().forEach(line -> text.append("  ").append(line).append('\n'));
                text.append("shortest failing prefix: ").append(failed.events()).append(" events after the topology:\n  ")
                        .append(scenario.topology()).append('\n');
                scenario.events().subList(0, failed.events()).forEach(e -> text.append("  ").append(e.line()).append('\n'));
                xml.writeCharacters(text.toString());
                xml.writeEndElement();
            }
            case Result.NotRun notRun -> {
                xml.writeEmptyElement("skipped");
                xml.writeAttribute("message", "needs " + String.join(", ", notRun.missing().stream().map(Capability::wireName).sorted().toList())
                        + ", which the adapter does not declare");
            }
            case Result.Errored errored -> {
                xml.writeStartElement("error");
                xml.writeAttribute("type", "adapter");
                xml.writeAttribute("message", errored.message());
                xml.writeEndElement();
            }
        }
        xml.writeEndElement();
        xml.writeCharacters("\n");
    }

    private static String seconds(double seconds) {
        return String.format(java.util.Locale.ROOT, "%.3f", seconds);
    }
}
