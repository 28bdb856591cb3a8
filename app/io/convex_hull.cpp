#include "io/convex_hull.h"

#include "geometry/tolerances.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace shallot {

namespace {

// Normal components this close to zero are rounding noise: an axial face gets an axial plane.
constexpr double kNormalSnap = 1e-12;

// Qhull's messages, captured in memory instead of going to stderr.
class MessageStream {
public:
    MessageStream() : file_(open_memstream(&text_, &size_)) {}
    ~MessageStream() {
        if (file_) std::fclose(file_);
        std::free(text_);
    }
    MessageStream(const MessageStream&) = delete;
    MessageStream& operator=(const MessageStream&) = delete;

    FILE* file() const { return file_; }
    // The first line written so far.
    std::string firstLine() {
        if (!file_) return "unknown error";
        std::fflush(file_);
        const std::string all(text_ ? text_ : "", size_);
        return all.substr(0, all.find('\n'));
    }

private:
    char* text_ = nullptr;
    size_t size_ = 0;
    FILE* file_;
};

// Qhull's state for one run, freed on every path.
class QhullRun {
public:
    explicit QhullRun(FILE* messages) { qh_zero(&qh_, messages); }
    ~QhullRun() {
        int currentLong = 0, totalLong = 0;
        qh_freeqhull(&qh_, !qh_ALL);
        qh_memfreeshort(&qh_, &currentLong, &totalLong);
    }
    QhullRun(const QhullRun&) = delete;
    QhullRun& operator=(const QhullRun&) = delete;
    qhT* get() { return &qh_; }

private:
    qhT qh_;
};

Vec3 cleanNormal(const double* n) {
    Vec3 v(n[0], n[1], n[2]);
    for (int i = 0; i < 3; ++i)
        if (std::abs(v[i]) < kNormalSnap) v[i] = 0.0;
    return v.normalized();
}

} // namespace

std::optional<ConvexHull> convexHull(const std::vector<Vec3>& points, std::string& error) {
    if (points.size() < 4) {
        error = "fewer than 4 points";
        return std::nullopt;
    }
    std::vector<coordT> coords;
    coords.reserve(points.size() * 3);
    for (const Vec3& p : points) coords.insert(coords.end(), {p.x(), p.y(), p.z()});

    MessageStream messages;
    QhullRun run(messages.file());
    qhT* qh = run.get();
    // Default options: in 3-d Qhull merges facets that are coplanar within its rounding error.
    char command[] = "qhull";
    if (qh_new_qhull(qh, 3, int(points.size()), coords.data(), False, command, nullptr, messages.file()) != 0) {
        error = messages.firstLine();
        return std::nullopt;
    }
    qh_getarea(qh, qh->facet_list);

    ConvexHull hull;
    hull.volume = qh->totvol;
    facetT* facet;
    vertexT *vertex, **vertexp;
    FORALLfacets {
        Plane plane;
        plane.normal = cleanNormal(facet->normal);
        // The outermost vertex fixes the distance, so the hull holds every point.
        plane.dist = -std::numeric_limits<double>::infinity();
        FOREACHvertex_(facet->vertices) {
            plane.dist = std::max(plane.dist, plane.normal.dot(Vec3(vertex->point[0], vertex->point[1], vertex->point[2])));
        }
        const bool duplicate = std::any_of(hull.planes.begin(), hull.planes.end(), [&](const Plane& q) {
            return (q.normal - plane.normal).cwiseAbs().maxCoeff() < kPlaneNormalEpsilon &&
                   std::abs(q.dist - plane.dist) < kPlaneDistEpsilon;
        });
        if (!duplicate) hull.planes.push_back(plane);
    }
    return hull;
}

} // namespace shallot
