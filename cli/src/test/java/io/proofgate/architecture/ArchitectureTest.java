package io.proofgate.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.xml.parsers.DocumentBuilderFactory;

/**
 * The architecture of docs/architecture.md, checked on the main classes of every module the command line is built from
 * (all but benchmarks and the generated tests, which nothing uses): no cycle between packages, and no module that uses
 * one it may not.
 */
class ArchitectureTest {

    /**
     * What each module uses: exactly the proofgate modules its pom declares (outside test scope), nothing reached only
     * through another's pom. Lowest first.
     */
    static final Map<String, Set<String>> MAY_USE = new LinkedHashMap<>();

    static {
        MAY_USE.put("words", Set.of());
        MAY_USE.put("json-text", Set.of("words"));
        MAY_USE.put("scenario-format", Set.of("words"));
        MAY_USE.put("validator", Set.of("words", "json-text"));
        MAY_USE.put("model-checker", Set.of("words", "json-text"));
        MAY_USE.put("generation", Set.of("words", "model-checker", "scenario-format"));
        MAY_USE.put("conform", Set.of("words", "json-text", "validator", "scenario-format"));
        MAY_USE.put(
                "review", Set.of("words", "model-checker", "generation", "conform", "validator", "scenario-format"));
        MAY_USE.put("cli", Set.of("words", "validator", "model-checker", "generation", "conform", "review"));
    }

    /** A module's classes as Maven puts them on the test class path: its target/classes, or its jar. */
    private static final Pattern FOLDER = Pattern.compile("/([a-z][a-z-]*)/target/classes/");

    private static final Pattern JAR = Pattern.compile("/proofgate-([a-z][a-z-]*)-\\d[^/]*\\.jar!");

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes =
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("io.proofgate");
    }

    @Test
    void everyModule_isChecked() {
        Set<String> seen = new TreeSet<>();
        for (JavaClass c : classes) {
            seen.add(module(c));
        }
        assertEquals(new TreeSet<>(MAY_USE.keySet()), seen);
    }

    /**
     * The protocol is a deterministic state machine: its package reads no file, clock or random source, starts no
     * thread and parses no JSON (the replay edge does, in io.proofgate.replay). What it may use: the JDK's language and
     * collection classes, and System.arraycopy.
     */
    @Test
    void theProtocolCore_isPure() {
        com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses()
                .that()
                .resideInAPackage("io.proofgate.protocol")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "java.io..",
                        "java.nio..",
                        "java.net..",
                        "java.time..",
                        "java.util.concurrent..",
                        "java.util.random..",
                        "java.lang.reflect..",
                        "com.fasterxml..")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.lang.Thread")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.lang.Runtime")
                .orShould()
                .callMethod(System.class, "nanoTime")
                .orShould()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethod(System.class, "getenv", String.class)
                .orShould()
                .callMethod(System.class, "getenv")
                .orShould()
                .callMethod(System.class, "getProperty", String.class)
                .orShould()
                .callMethod(System.class, "exit", int.class)
                .orShould()
                .accessField(System.class, "out")
                .orShould()
                .accessField(System.class, "err")
                .orShould()
                .accessField(System.class, "in")
                .orShould()
                .dependOnClassesThat()
                .haveFullyQualifiedName("java.util.Random")
                .because("the protocol is a pure, deterministic state machine (docs/architecture.md)")
                .check(classes);
    }

    /**
     * The protocol's words are the JDK only, so that every module and every implementation's kit can read them without
     * taking a library along.
     */
    @Test
    void theWords_useTheJdkOnly() {
        com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes()
                .that()
                .resideInAPackage("io.proofgate.words")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "io.proofgate.words")
                .because("the protocol's words are the bottom of every module (docs/architecture.md)")
                .check(classes);
    }

    @Test
    void packages_haveNoCycle() {
        slices().matching("io.proofgate.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void modules_useExactlyWhatTheirPomsDeclare() {
        Map<String, Set<String>> used = new TreeMap<>();
        MAY_USE.keySet().forEach(m -> used.put(m, new TreeSet<>()));
        List<String> violations = new ArrayList<>();
        for (JavaClass origin : classes) {
            String from = module(origin);
            for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass();
                if (!target.getPackageName().startsWith("io.proofgate") || target.getSource().isEmpty()) {
                    continue;
                }
                String to = module(target);
                if (!to.equals(from)) {
                    used.get(from).add(to);
                    if (!MAY_USE.get(from).contains(to)) {
                        violations.add(from + " uses " + to + ": " + dependency.getDescription());
                    }
                }
            }
        }
        assertEquals(List.of(), violations.stream().distinct().limit(20).toList());
        Map<String, Set<String>> declared = new TreeMap<>();
        MAY_USE.forEach((m, uses) -> declared.put(m, new TreeSet<>(uses)));
        assertEquals(declared, used, "a module declares another that it does not use");
    }

    @Test
    void mayUse_isWhatEachPomDeclares() throws Exception {
        Map<String, Set<String>> poms = new TreeMap<>();
        for (String module : MAY_USE.keySet()) {
            poms.put(module, declaredModules(Path.of("..", module, "pom.xml")));
        }
        Map<String, Set<String>> table = new TreeMap<>();
        MAY_USE.forEach((m, uses) -> table.put(m, new TreeSet<>(uses)));
        assertEquals(poms, table);
    }

    /** The proofgate modules a pom depends on outside test scope. */
    private static Set<String> declaredModules(Path pom) throws Exception {
        Element project =
                DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
        Set<String> modules = new TreeSet<>();
        NodeList dependencies = project.getElementsByTagName("dependency");
        for (int i = 0; i < dependencies.getLength(); i++) {
            Element dependency = (Element) dependencies.item(i);
            if (dependency.getParentNode().getParentNode() != project) {
                continue; // a plugin's dependency, not the module's
            }
            String artifact = text(dependency, "artifactId");
            if (artifact.startsWith("proofgate-") && !"test".equals(text(dependency, "scope"))) {
                modules.add(artifact.substring("proofgate-".length()));
            }
        }
        return modules;
    }

    private static String text(Element parent, String tag) {
        NodeList nodes = parent.getElementsByTagName(tag);
        return nodes.getLength() == 0 ? "" : nodes.item(0).getTextContent().trim();
    }

    private static String module(JavaClass c) {
        String uri = c.getSource().map(s -> s.getUri().toString()).orElse("");
        for (Pattern pattern : List.of(FOLDER, JAR)) {
            Matcher m = pattern.matcher(uri);
            if (m.find() && MAY_USE.containsKey(m.group(1))) {
                return m.group(1);
            }
        }
        throw new IllegalStateException(c.getName() + " comes from " + uri + ", which is no module of MAY_USE");
    }
}
