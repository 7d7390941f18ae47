import HTTPTypes
import Hummingbird
import StratusCore

/// A known path asked with a method it does not serve answers 405 with `Allow` naming the
/// methods it does, instead of the 404 of an unknown path. Registered last, over the routes
/// already on the router; OPTIONS and HEAD are left to the HTTP stack.
enum MethodNotAllowedRoutes {
    static let refusable: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete, .trace, .connect] + [HTTPRequest.Method("QUERY")].compactMap { $0 }

    static func register(on router: Router<StratusRequestContext>) {
        var allowed: [String: (path: RouterPath, methods: [HTTPRequest.Method])] = [:]
        for route in router.routes {
            allowed[route.path.description, default: (route.path, [])].methods.append(route.method)
        }
        for (path, methods) in allowed.values {
            let allow = methods.map(\.rawValue).sorted().joined(separator: ", ")
            for method in refusable where !methods.contains(method) {
                router.on(path, method: method) { _, context in
                    var response = ErrorMiddleware<StratusRequestContext>.response(
                        for: CoreError.badRequest("method \(method.rawValue) is not allowed here: use \(allow)"),
                        requestID: context.id, status: .methodNotAllowed
                    )
                    response.headers[.allow] = allow
                    return response
                }
            }
        }
    }
}
