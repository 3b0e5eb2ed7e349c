package io.proofgate.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The architecture of docs/architecture.md, checked on the main classes of every module the
 * command line is built from (all but benchmarks and the generated tests, which nothing uses):
 * no cycle between packages, and no module that uses one it may not.
 */
class ArchitectureTest {

    /**
     * What each module may use, as its pom declares it; what a module it may use may use, it may
     * use too. Lowest first.
     */
    static final Map<String, Set<String>> MAY_USE = new LinkedHashMap<>();

    static {
        MAY_USE.put("scenario-format", Set.of());
        MAY_USE.put("validator", Set.of());
        MAY_USE.put("model-checker", Set.of("validator", "scenario-format"));
        MAY_USE.put("conform", Set.of("validator", "scenario-format"));
        MAY_USE.put("review", Set.of("conform", "model-checker"));
        MAY_USE.put("cli", Set.of("validator", "model-checker", "conform", "review"));
    }

    /** A module's classes as Maven puts them on the test class path: its target/classes, or its jar. */
    private static final Pattern FOLDER = Pattern.compile("/([a-z][a-z-]*)/target/classes/");
    private static final Pattern JAR = Pattern.compile("/proofgate-([a-z][a-z-]*)-\\d[^/]*\\.jar!");

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
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

    @Test
    void packages_haveNoCycle() {
        slices().matching("io.proofgate.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void modules_useOnlyWhatTheyMay() {
        Map<String, Set<String>> allowed = closure();
        List<String> violations = new ArrayList<>();
        for (JavaClass origin : classes) {
            String from = module(origin);
            for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass();
                if (!target.getPackageName().startsWith("io.proofgate") || target.getSource().isEmpty()) {
                    continue;
                }
                String to = module(target);
                if (!to.equals(from) && !allowed.get(from).contains(to)) {
                    violations.add(from + " uses " + to + ": " + dependency.getDescription());
                }
            }
        }
        assertEquals(List.of(), violations.stream().distinct().limit(20).toList());
    }

    /** Each module with every module it may use, directly or through another. */
    private static Map<String, Set<String>> closure() {
        Map<String, Set<String>> all = new LinkedHashMap<>();
        for (String module : MAY_USE.keySet()) {
            Set<String> reached = new LinkedHashSet<>();
            List<String> todo = new ArrayList<>(MAY_USE.get(module));
            while (!todo.isEmpty()) {
                String next = todo.removeLast();
                if (reached.add(next)) {
                    todo.addAll(MAY_USE.get(next));
                }
            }
            all.put(module, reached);
        }
        return all;
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
