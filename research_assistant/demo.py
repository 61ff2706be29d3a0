"""The embedded demo library: four short papers on well-established statistical physics.

The authors are fictional and every page says so (DEMO_BANNER); the science and the numbers are
real and checkable, so that a newcomer's first question gets a true, cited answer. Two papers
share first author and year (labels 2020a/2020b), and the DLA paper cites works that are not in
the library ([Witten and Sander, 1981]) so that second-hand citations can be shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DEMO_BANNER = "DEMO CONTENT written for Citable - not a real publication"
DEMO_NOTE = "Demo content written for Citable; the authors are fictional, the science is real"
DEMO_VENUE = "Citable Demo Notes in Statistical Physics"


@dataclass(frozen=True)
class DemoPaper:
    key: str
    title: str
    authors: str  # BibTeX author string: "Family, Given and Family, Given"
    year: int
    venue: str
    abstract: str
    sections: tuple[tuple[str, str], ...]  # (heading, paragraphs separated by blank lines)

    @property
    def display_authors(self) -> str:
        """'Given Family' names for the printed page."""
        names = [" ".join(reversed(n.split(", ", 1))) for n in self.authors.split(" and ")]
        return ", ".join(names)


_PERCOLATION = DemoPaper(
    key="okaforPercolationThresholdsTwodimensional2020",
    title="Percolation Thresholds on Two-Dimensional Lattices: A Short Guide",
    authors="Okafor, Adaeze N.",
    year=2020,
    venue=DEMO_VENUE,
    abstract=(
        "We collect the exactly known and the best numerical percolation thresholds of the common "
        "two- and three-dimensional lattices, and the universal critical exponents of "
        "two-dimensional percolation."
    ),
    sections=(
        (
            "1 Introduction",
            """
Percolation asks when randomly placed connections join up into a path that crosses a whole
system. Each site of a lattice is occupied independently with probability p (site percolation),
or each bond is open with probability p (bond percolation). Below a critical value p_c all
clusters are finite; above it an infinite cluster spans the system. The model was introduced by
Broadbent and Hammersley [Broadbent and Hammersley, 1957] to describe fluid flow through a
porous medium, and it has since been used for forest fires, epidemics and conducting composites.

The threshold depends on the lattice and on whether sites or bonds are diluted, but the
behaviour close to the threshold does not: it is described by critical exponents that are
the same for every two-dimensional lattice.""",
        ),
        (
            "2 Thresholds known exactly",
            """
Bond percolation on the square lattice has the threshold p_c = 1/2 exactly. The value follows
from the self-duality of the square lattice, and Kesten [Kesten, 1980] gave the rigorous proof.
Site percolation on the triangular lattice also has p_c = 1/2 exactly.

The star-triangle transformation of Sykes and Essam [Sykes and Essam, 1964] gives two more
exact values: bond percolation on the triangular lattice has p_c = 2 sin(π/18) ≈ 0.3473, and
bond percolation on the honeycomb lattice has p_c = 1 − 2 sin(π/18) ≈ 0.6527. The two add up to
one because the triangular and honeycomb lattices are duals of each other.""",
        ),
        (
            "3 Thresholds known numerically",
            """
No closed form is known for site percolation on the square lattice. Large simulations give
p_c ≈ 0.592746, well above the bond value of 1/2, because occupying a site is a weaker way to
connect neighbours than opening a bond. Site percolation on the honeycomb lattice has
p_c ≈ 0.6970. In three dimensions the simple cubic lattice has p_c ≈ 0.3116 for sites and
p_c ≈ 0.2488 for bonds.

A rule of thumb follows from these numbers: the more neighbours each site has, the lower the
threshold. The honeycomb lattice (three neighbours) has the highest thresholds in this list, the
triangular lattice (six neighbours) the lowest of the two-dimensional ones.""",
        ),
        (
            "4 Critical exponents",
            """
Close to the threshold the correlation length, the typical size of the finite clusters, diverges
as ξ ~ |p − p_c|^(−ν) with ν = 4/3 in two dimensions. The probability P that a site belongs to
the infinite cluster grows above the threshold as P ~ (p − p_c)^β with β = 5/36. Exactly at
p_c the largest cluster is a fractal: its mass grows with its radius R as R^D with
D = 91/48 ≈ 1.896.

These exponents are universal: the square, triangular and honeycomb lattices, site or bond,
all share them, although their thresholds differ.""",
        ),
        (
            "5 Simulating percolation",
            """
The algorithm of Newman and Ziff adds sites one at a time in random order and merges clusters
with a union-find structure, so that one sweep gives the observables for every value of p at a
cost that grows only linearly with the number of sites. In a finite L × L system the apparent
threshold is shifted from p_c by an amount proportional to L^(−1/ν) = L^(−3/4), which is how
the numerical values above are extrapolated to infinite systems.""",
        ),
    ),
)

_RANDOM_WALKS = DemoPaper(
    key="okaforReturnEscapeRandom2020",
    title="Return or Escape: Random Walks in One, Two and Three Dimensions",
    authors="Okafor, Adaeze N.",
    year=2020,
    venue=DEMO_VENUE,
    abstract=(
        "A simple random walk returns to its starting point with certainty in one and two "
        "dimensions but only with probability about 0.34 in three. We review this theorem of "
        "Pólya and what it implies for diffusion, for the number of sites a walker visits, and "
        "for growth models."
    ),
    sections=(
        (
            "1 The simple random walk",
            """
On the integer lattice in d dimensions a simple random walk moves at each step to one of its 2d
nearest neighbours, each chosen with probability 1/(2d). After N steps of unit length the mean
squared distance from the start is exactly N in every dimension, so the typical distance grows
only as the square root of N. In the continuum limit the walk becomes diffusion: the mean
squared displacement grows as 2dDt, where D is the diffusion coefficient and t the time.""",
        ),
        (
            "2 Pólya's recurrence theorem",
            """
Pólya proved in 1921 [Pólya, 1921] that the simple random walk returns to its starting point
with probability one in one and two dimensions: these walks are recurrent. In three dimensions
the walk is transient: the probability that it ever returns to the origin is only about 0.3405,
so with probability about two thirds it wanders off and never comes back. A saying attributed
to Kakutani sums it up: a drunk man will find his way home, but a drunk bird may get lost
forever.

Recurrence in two dimensions is slow. The mean time to return is infinite even in one
dimension, so a recurrent walk can spend very long excursions away from home.""",
        ),
        (
            "3 How many sites does a walker visit?",
            """
The number of distinct sites visited in N steps shows the same split. In one dimension it grows
as the square root of 8N/π. In two dimensions it grows as πN/ln N, nearly linearly but not
quite, because the walk keeps revisiting its own territory. In three dimensions it grows as
(1 − F)N with F ≈ 0.3405 the return probability, so about 66 percent of the steps land on a
new site.""",
        ),
        (
            "4 Why growth models care",
            """
Recurrence matters for models in which random walkers build structures. In diffusion-limited
aggregation, walkers released far away in a two-dimensional plane are certain to reach the
cluster eventually, because the two-dimensional walk is recurrent. By symmetry, a walker coming
from far away first crosses a circle around the cluster at a uniformly random point, so a
simulation can release each walker at a random point of such a circle instead. Random
walks that may not cross themselves (self-avoiding walks), the simplest model of a polymer,
spread faster than simple walks: their size grows as N^ν with ν = 3/4 exactly in two
dimensions and ν ≈ 0.588 in three.""",
        ),
        (
            "5 From walks to the diffusion equation",
            """
After many steps the position of the walker is distributed as a Gaussian, by the central limit
theorem, with variance N/d along each axis after N steps. If each step has length a and takes a
time τ, the probability density P obeys in the limit the diffusion equation ∂P/∂t = D∇²P with
D = a²/(2dτ). This is the bridge from a microscopic random walk to the macroscopic diffusion of
heat, of dissolved molecules and of the suspended particles of Brownian motion.

The same limit explains why diffusion is slow over long distances: the time to spread over a
distance L grows as L², so a protein that crosses a cell of 10 µm in about half a second
would need a million times longer, nearly a week, to diffuse across a centimetre of still
water.""",
        ),
    ),
)

_BROWNIAN = DemoPaper(
    key="castellanosBrownianMotionCounting2018",
    title="Brownian Motion and the Counting of Molecules",
    authors="Castellanos, Tomas and Haddad, Samir",
    year=2018,
    venue=DEMO_VENUE,
    abstract=(
        "Einstein's theory of Brownian motion related the visible jitter of a suspended particle "
        "to the number of molecules in a mole. We rederive the Stokes-Einstein relation, work "
        "through the numbers for a one-micrometre sphere in water, and recall how Perrin's "
        "measurements settled the existence of atoms."
    ),
    sections=(
        (
            "1 The observation",
            """
In 1827 the botanist Robert Brown watched particles released from pollen grains in water under
a microscope and saw them move in an irregular, never-ending jitter. He showed that particles
of inorganic matter jitter in the same way, so the motion is not a sign of life. For almost
eighty years it had no accepted explanation.""",
        ),
        (
            "2 Einstein's theory",
            """
Einstein [Einstein, 1905] explained the motion as the result of countless collisions with the
molecules of the liquid. The displacement of the particle along one axis is then a random walk,
and its mean square grows linearly with time: <x²> = 2Dt. The diffusion coefficient of a sphere
of radius a in a liquid of viscosity η at absolute temperature T is given by the
Stokes-Einstein relation D = k_B T / (6πηa), where k_B = R/N_A is the gas constant divided by
Avogadro's number. Measuring D therefore measures N_A.""",
        ),
        (
            "3 The numbers for a small sphere",
            """
Take a sphere of radius a = 0.5 µm (one micrometre across) in water at 20 °C, where
η ≈ 1.0 mPa·s and k_B T ≈ 4.05 × 10^−21 J. Then D ≈ 4.3 × 10^−13 m²/s, that is about
0.43 µm² per second. The root-mean-square displacement along one axis, √(2Dt), is about
0.93 µm after one second and about 9.3 µm after one hundred seconds: ten times farther for a
hundred times longer, the square-root law of a random walk.

The velocity of such a particle forgets its direction in well under a microsecond, which is why
the apparent speed measured between microscope frames is meaningless: only the growth of the
mean squared displacement with time is a sound observable.""",
        ),
        (
            "4 Perrin's measurements",
            """
Jean Perrin followed suspended grains of gamboge and mastic under the microscope from 1908
onwards, recorded their displacements at fixed time intervals and obtained Avogadro's number
from the Stokes-Einstein relation, and independently from the way the grains settle with height
in a sedimentation equilibrium. His values fell between about 6 and 8 × 10^23 per mole,
consistent with each other and with other methods, and they persuaded the remaining sceptics
that molecules are real. He received the Nobel Prize in Physics in 1926. Since 2019 the
Avogadro constant is defined exactly as 6.02214076 × 10^23 per mole.""",
        ),
        (
            "5 Brownian motion as a tool",
            """
The same relation is now used in the other direction: with k_B T known, the jitter of a
particle measures its surroundings. A small protein of radius 2.5 nm diffuses in water with
D ≈ 86 µm² per second by the Stokes-Einstein relation, two hundred times faster than the
micrometre sphere above, and a slower measured diffusion inside a cell reports how crowded and
viscous the cytoplasm is.

Optical tweezers are calibrated by Brownian motion as well. A bead held in a harmonic trap of
stiffness κ fluctuates with <x²> = k_B T/κ by equipartition, and the power spectrum of its
position is a Lorentzian with corner frequency f_c = κ/(2πγ), where γ = 6πηa is the drag
coefficient. Either measurement gives the stiffness without any external force standard.""",
        ),
    ),
)

_DLA = DemoPaper(
    key="lindqvistDiffusionlimitedAggregationHow2021",
    title="Diffusion-Limited Aggregation: How Random Walkers Build Fractals",
    authors="Lindqvist, Maren and Haddad, Samir",
    year=2021,
    venue=DEMO_VENUE,
    abstract=(
        "Diffusion-limited aggregation grows branched clusters from particles that arrive by "
        "random walks. In two dimensions the clusters are fractals with dimension about 1.71, in "
        "three dimensions about 2.5. We explain the model, why it branches, and where it is seen "
        "in nature."
    ),
    sections=(
        (
            "1 The model",
            """
Witten and Sander [Witten and Sander, 1981] introduced diffusion-limited aggregation (DLA) in
1981. A seed particle sits at the origin. One at a time, further particles are released far
away and perform random walks until they first touch the cluster, where they stick for good.
Nothing else happens: no particle ever detaches or rearranges. The result is a branched,
tree-like cluster that looks the same at every scale.""",
        ),
        (
            "2 Fractal dimension",
            """
The number of particles M inside a radius R of a DLA cluster grows as M ~ R^D. Large
off-lattice simulations of clusters with millions of particles give a fractal dimension
D ≈ 1.71 for DLA clusters in two dimensions, well below the dimension 2 of the plane, and
D ≈ 2.50 in three dimensions [Meakin, 1983]. The density of a cluster therefore decreases
as it grows, as R^(D−d) in d dimensions, and its radius grows with the number of particles as
N^(1/D), about N^0.58 in the plane.

Unlike the largest cluster at the percolation threshold, whose dimension 91/48 ≈ 1.896 is
known exactly [Okafor, 2020a], no exact value of the DLA dimension is known: 1.71 is a
numerical result.""",
        ),
        (
            "3 Why the clusters branch",
            """
A random walker approaching the cluster is far more likely to hit the outer tips than to
wander deep into a fjord between two branches without touching either of them. The tips
therefore grow fastest and screen the interior, a small bump grows into a new branch, and the
growth is unstable in the same way as the Mullins-Sekerka instability of a solidification
front. Mathematically the probability that the next particle sticks at a point of the surface is
the gradient there of a solution of Laplace's equation, so DLA is a model of Laplacian growth.""",
        ),
        (
            "4 Simulating DLA",
            """
Because the simple random walk is recurrent in two dimensions [Okafor, 2020b], a walker released
anywhere in the plane reaches the cluster with probability one. A walker coming from far away
first crosses a circle around the cluster at a uniformly random point, so a simulation releases
each walker at a random point of a circle just outside the cluster. Walkers that stray
beyond a kill radius of a few cluster radii are removed and replaced, and long empty stretches
are crossed with large jumps whose length is the distance to the cluster, which keeps the cost
per particle low.""",
        ),
        (
            "5 Where DLA is seen",
            """
Metal deposited by electrolysis in a thin cell grows as branched trees with dimension close to
1.7. Viscous fingering, when a thin fluid such as air is pushed into a viscous one such as oil
between two plates of a Hele-Shaw cell, gives similar patterns, and so do the manganese oxide
dendrites found on rock surfaces, often mistaken for fossil plants. When the clusters
themselves diffuse and stick (cluster-cluster aggregation, as in soot and colloidal gold) the
aggregates are looser, with a fractal dimension of about 1.8 in three dimensions.""",
        ),
    ),
)

DEMO_PAPERS: tuple[DemoPaper, ...] = (_PERCOLATION, _RANDOM_WALKS, _BROWNIAN, _DLA)


def demo_bibtex() -> str:
    """The BibTeX of the demo papers; ``file`` is relative to the .bib, like Better BibTeX."""
    entries = []
    for p in DEMO_PAPERS:
        fields = {
            "title": f"{{{p.title}}}",  # braces keep the capitals in every style
            "author": p.authors,
            "year": str(p.year),
            "journal": p.venue,
            "abstract": p.abstract,
            "note": DEMO_NOTE,
            "file": f"{p.key}.pdf",
        }
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields.items())
        entries.append(f"@article{{{p.key},\n{body}\n}}\n")
    return "\n".join(entries)


def build_demo(folder: Path) -> list[Path]:
    """Write ``<key>.pdf`` for each demo paper and ``demo.bib`` into ``folder``.

    Returns the PDFs then the .bib. Idempotent: the output is deterministic and unchanged
    files are not rewritten.
    """
    from research_assistant.ingest import pdf  # the demo texts stay importable without PyMuPDF

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    for paper in DEMO_PAPERS:
        path = folder / f"{paper.key}.pdf"
        sections = (("Abstract", paper.abstract), *paper.sections)
        pdf.write_pdf(
            path,
            title=paper.title,
            authors=f"{paper.display_authors} - {paper.venue}, {paper.year}",
            banner=DEMO_BANNER,
            sections=sections,
        )
        paths.append(path)
    bib = folder / "demo.bib"
    text = demo_bibtex()
    if not bib.is_file() or bib.read_text(encoding="utf-8") != text:
        tmp = bib.with_name(f".{bib.name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(bib)
    paths.append(bib)
    return paths


__all__ = ["DEMO_BANNER", "DEMO_PAPERS", "DemoPaper", "build_demo", "demo_bibtex"]
