// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/session/Pipeline.h"

#include "core/common/Error.h"

#include <limits>

namespace wb::session {

namespace {

[[noreturn]] void invalid(const std::string& field, const std::string& what)
{
    throw Error(Error::Kind::InvalidArgument, field + ": " + what);
}

std::int64_t integerOf(const Expression& e, const std::string& expression, const std::string& field)
{
    const Expression::Integer v = e.evaluateInteger(expression, field);
    constexpr std::uint64_t kMax = std::numeric_limits<std::int64_t>::max();
    if (v.magnitude > kMax + (v.negative ? 1u : 0u))
        invalid(field, "\"" + expression + "\" is out of range for a loop (a 64-bit integer)");
    return v.negative ? static_cast<std::int64_t>(0 - v.magnitude)
                      : static_cast<std::int64_t>(v.magnitude);
}

class Expander {
public:
    Expander(const Session& s, const LaunchConfigOf& configOf)
        : m_s(s)
        , m_configOf(configOf)
    {
    }

    void entry(std::size_t index, const Expression& scalars)
    {
        m_index = index;
        m_field = "launches[" + std::to_string(index) + "]";
        const PipelineLaunch& p = m_s.launches[index];
        for (std::size_t j = 0; j < p.repeat.size(); ++j) {
            const std::string f = m_field + ".repeat[" + std::to_string(j) + "].var";
            const std::string& var = p.repeat[j].var;
            if (m_s.findScalar(var))
                invalid(f, "loop variable \"" + var + "\" has the name of a scalar");
            if (m_s.findBuffer(var))
                invalid(f, "loop variable \"" + var + "\" has the name of a buffer");
            for (std::size_t k = 0; k < j; ++k)
                if (p.repeat[k].var == var)
                    invalid(f, "loop variable \"" + var + "\" is already a loop of this launch");
        }
        PipelineStep step;
        step.entry = index;
        loop(0, scalars, step);
    }

    std::vector<PipelineStep> steps;

private:
    void loop(std::size_t depth, const Expression& e, PipelineStep& step)
    {
        const PipelineLaunch& p = m_s.launches[m_index];
        if (depth == p.repeat.size()) {
            if (steps.size() == kMaxPipelineLaunches)
                invalid(m_field, "the pipeline expands to more than " +
                                     std::to_string(kMaxPipelineLaunches) +
                                     " launches in one pass (reached at " + p.launch.kernel +
                                     (step.vars.empty() ? "" : " " + loopValuesText(step.vars)) +
                                     "); shorten its repeat or split the work into fewer "
                                     "launches");
            step.config = m_configOf(p.launch, e, m_field);
            steps.push_back(step);
            return;
        }
        const LoopSpec& l = p.repeat[depth];
        const std::string f = m_field + ".repeat[" + std::to_string(depth) + "]";
        const std::int64_t from = integerOf(e, l.from, f + ".from");
        const std::int64_t to = integerOf(e, l.to, f + ".to");
        const std::int64_t by = integerOf(e, l.by,
                                          f + (l.step == LoopSpec::Step::Add        ? ".step"
                                               : l.step == LoopSpec::Step::Multiply ? ".times"
                                                                                    : ".divide"));
        if (l.step == LoopSpec::Step::Add && by == 0)
            invalid(f + ".step", "\"" + l.by + "\" = 0: the loop would never end");
        if (l.step != LoopSpec::Step::Add && by < 2)
            invalid(f + (l.step == LoopSpec::Step::Multiply ? ".times" : ".divide"),
                    "\"" + l.by + "\" = " + std::to_string(by) + "; expected at least 2");
        // Up (`<= to`) when adding a positive step or multiplying; down (`>= to`) otherwise.
        const bool up =
            (l.step == LoopSpec::Step::Add && by > 0) || l.step == LoopSpec::Step::Multiply;
        for (std::int64_t v = from; up ? v <= to : v >= to;) {
            Expression inner = e;
            step.varBytes.push_back(inner.defineScalar(ScalarSpec(l.var, l.type, std::to_string(v)),
                                                       f + ".var (" + l.var + ")"));
            step.vars.emplace_back(l.var, v);
            loop(depth + 1, inner, step);
            step.vars.pop_back();
            step.varBytes.pop_back();
            std::int64_t next = 0;
            bool overflow = false;
            switch (l.step) {
            case LoopSpec::Step::Add:
                overflow = __builtin_add_overflow(v, by, &next);
                break;
            case LoopSpec::Step::Multiply:
                overflow = __builtin_mul_overflow(v, by, &next);
                break;
            case LoopSpec::Step::Divide:
                next = v / by;
                break;
            }
            if (overflow) break; // past any bound `to` can hold
            if (next == v)
                invalid(f, "loop variable \"" + l.var + "\" stays at " + std::to_string(v) +
                               ": the loop would never end");
            v = next;
        }
    }

    const Session& m_s;
    const LaunchConfigOf& m_configOf;
    std::size_t m_index = 0;
    std::string m_field;
};

} // namespace

std::vector<PipelineStep> expandPipeline(const Session& s, const Expression& scalars,
                                         const LaunchConfigOf& configOf)
{
    Expander x(s, configOf);
    for (std::size_t i = 0; i < s.launches.size(); ++i) {
        if (s.launches[i].launch.kernel.empty())
            invalid("launches[" + std::to_string(i) + "].kernel", "required field is missing");
        x.entry(i, scalars);
    }
    if (x.steps.empty())
        invalid("launches", "the pipeline expands to no launch (every repeat is empty)");
    return std::move(x.steps);
}

Session sessionForLaunch(const Session& s, std::size_t entry)
{
    Session out = s;
    for (const LoopSpec& l : s.launches.at(entry).repeat)
        out.scalars.emplace_back(l.var, l.type, l.from);
    return out;
}

std::string loopValuesText(const std::vector<std::pair<std::string, std::int64_t>>& vars)
{
    std::string out;
    for (const auto& [name, value] : vars)
        out += (out.empty() ? "" : " ") + name + "=" + std::to_string(value);
    return out;
}

} // namespace wb::session
