package io.proofgate.generate;

import com.github.difflib.DiffUtils;
import com.github.difflib.patch.AbstractDelta;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * How local the generated diff of a spec edit is: the scenarios of two generations compared by identity (the id from
 * their events), against the scenarios whose events cross something the edit changed (walked on both revisions' state
 * graphs, the model's expectations after some event differ, or the events are a path in one revision only).
 *
 * @param crossing scenarios (of either revision) whose events cross a changed edge: these must change
 * @param needless scenarios changed, added or removed although their events cross nothing changed
 * @param renamed scenarios kept (same id) whose name changed; {@code moved}: whose file changed
 */
public record Locality(
        int baseScenarios,
        int headScenarios,
        int kept,
        int keptChanged,
        int added,
        int removed,
        int renamed,
        int moved,
        int crossing,
        int needless,
        int linesAdded,
        int linesRemoved,
        int filesChanged) {

    public int linesChanged() {
        return linesAdded + linesRemoved;
    }

    public static Locality compare(Generation.Output base, Generation.Output head) {
        Map<String, WrittenScenarios.Written> before = byId(base);
        Map<String, WrittenScenarios.Written> after = byId(head);
        Map<String, WrittenScenarios.Walker> baseWalkers = new HashMap<>();
        Map<String, WrittenScenarios.Walker> headWalkers = new HashMap<>();
        base.graphs().forEach((model, graph) -> baseWalkers.put(model, new WrittenScenarios.Walker(graph)));
        head.graphs().forEach((model, graph) -> headWalkers.put(model, new WrittenScenarios.Walker(graph)));

        Set<String> ids = new TreeSet<>(before.keySet());
        ids.addAll(after.keySet());
        int kept = 0;
        int keptChanged = 0;
        int added = 0;
        int removed = 0;
        int renamed = 0;
        int moved = 0;
        int crossing = 0;
        int needless = 0;
        for (String id : ids) {
            WrittenScenarios.Written b = before.get(id);
            WrittenScenarios.Written h = after.get(id);
            WrittenScenarios.Written any = b != null ? b : h;
            String model = any.file().substring(0, any.file().indexOf('/'));
            boolean crosses =
                    !expectations(baseWalkers.get(model), any).equals(expectations(headWalkers.get(model), any));
            boolean changed;
            if (b != null && h != null) {
                kept++;
                changed = !b.text().equals(h.text());
                keptChanged += changed ? 1 : 0;
                renamed += b.name().equals(h.name()) ? 0 : 1;
                moved += b.file().equals(h.file()) ? 0 : 1;
            } else {
                changed = true;
                added += b == null ? 1 : 0;
                removed += h == null ? 1 : 0;
            }
            crossing += crosses ? 1 : 0;
            needless += changed && !crosses ? 1 : 0;
        }
        int[] lines = lineDiff(base.files(), head.files());
        return new Locality(
                before.size(),
                after.size(),
                kept,
                keptChanged,
                added,
                removed,
                renamed,
                moved,
                crossing,
                needless,
                lines[0],
                lines[1],
                lines[2]);
    }

    private static Optional<List<List<String>>> expectations(
            WrittenScenarios.Walker walker, WrittenScenarios.Written s) {
        return walker == null ? Optional.empty() : walker.expectations(s.labels());
    }

    private static Map<String, WrittenScenarios.Written> byId(Generation.Output output) {
        Map<String, WrittenScenarios.Written> byId = new HashMap<>();
        for (WrittenScenarios.Written s : WrittenScenarios.read(output.files())) {
            String key = s.file().substring(0, s.file().indexOf('/')) + "/" + s.id();
            if (byId.put(key, s) != null) {
                throw new GenerationException("two scenarios with the id " + key);
            }
        }
        return byId;
    }

    /** Lines added, lines removed, files changed. */
    private static int[] lineDiff(Map<String, String> base, Map<String, String> head) {
        Set<String> names = new HashSet<>(base.keySet());
        names.addAll(head.keySet());
        int add = 0;
        int remove = 0;
        int files = 0;
        for (String name : names) {
            List<String> a = base.getOrDefault(name, "").lines().toList();
            List<String> b = head.getOrDefault(name, "").lines().toList();
            if (a.equals(b)) {
                continue;
            }
            files++;
            for (AbstractDelta<String> delta : DiffUtils.diff(a, b).getDeltas()) {
                remove += delta.getSource().size();
                add += delta.getTarget().size();
            }
        }
        return new int[] {add, remove, files};
    }
}
