// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/cuda/SourceModule.h"

#include "core/cuda/CompileError.h"
#include "core/cuda/Compiler.h"

namespace wb::cuda {

CompileResult SourceModule::compile(const Context& context, const std::string& source,
                                    const CompileOptions& options, const std::string& sourceName)
{
    CompileResult result =
        Compiler::instance().compile(source, sourceName, options, context.device().arch());
    if (!result.ok) throw CompileError(std::move(result));
    return result;
}

SourceModule::SourceModule(const Context& context, CompileResult compiled)
    : m_compiled(std::move(compiled))
    , m_module(Module::load(context, m_compiled))
{
}

SourceModule::SourceModule(const std::string& source, const CompileOptions& options, int device)
    : SourceModule(Context::primary(device), source, options)
{
}

SourceModule::SourceModule(const Context& context, const std::string& source,
                           const CompileOptions& options, const std::string& sourceName)
    : SourceModule(context, compile(context, source, options, sourceName))
{
}

} // namespace wb::cuda
