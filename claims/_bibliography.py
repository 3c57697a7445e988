"""The works the built-in claims cite, with their bibliographic facts.

Every fact here was read from the work's own record (its arXiv listing, its publisher's or
proceedings page, the PDF's title block) or, where only a secondary record was available,
``unverified=`` says which fact rests on it. The facts come from the project's research log
(``bibliography.json``, ``citation_errors.md``) and, for the works added with the prose
claims, from the records named in each ``unverified`` note. Nothing is filled in from memory.

``year`` is the year of publication (the venue's, when the work was published); ``tmath
check`` also accepts the year of the arXiv id. A claim points at a place in a work with
``WORK.at("§5.4")``.
"""

from tmath import Source

VASWANI2017 = Source(
    key="vaswani2017", authors=("Ashish Vaswani", "Noam Shazeer", "Niki Parmar",
                                "Jakob Uszkoreit", "Llion Jones", "Aidan N. Gomez",
                                "Łukasz Kaiser", "Illia Polosukhin"),
    title="Attention Is All You Need", year=2017,
    venue="Advances in Neural Information Processing Systems 30 (NIPS 2017)",
    arxiv="1706.03762")
ALAMMAR2018 = Source(
    key="alammar2018", authors=("Jay Alammar",), title="The Illustrated Transformer", year=2018,
    venue="blog", url="https://jalammar.github.io/illustrated-transformer/")
KAZEMNEJAD = Source(
    key="kazemnejad", authors=("Amirhossein Kazemnejad",),
    title="Transformer Architecture: The Positional Encoding", venue="blog",
    url="https://kazemnejad.com/blog/transformer_architecture_positional_encoding/",
    unverified="the year of the post; its content was not read")
TSAI2019 = Source(
    key="tsai2019", authors=("Yao-Hung Hubert Tsai", "Shaojie Bai", "Makoto Yamada",
                             "Louis-Philippe Morency", "Ruslan Salakhutdinov"),
    title="Transformer Dissection: An Unified Understanding for Transformer's Attention via "
          "the Lens of Kernel", year=2019, venue="EMNLP-IJCNLP 2019, pp. 4344-4353",
    arxiv="1908.11775", doi="10.18653/v1/D19-1443")
CHOROMANSKI2021 = Source(
    key="choromanski2021", authors=("Krzysztof Choromanski", "Valerii Likhosherstov",
                                    "David Dohan", "Xingyou Song", "Andreea Gane",
                                    "Tamas Sarlos", "Peter Hawkins", "Jared Davis",
                                    "Afroz Mohiuddin", "Lukasz Kaiser", "David Belanger",
                                    "Lucy Colwell", "Adrian Weller"),
    title="Rethinking Attention with Performers", year=2021, venue="ICLR 2021",
    arxiv="2009.14794")
HE2016_IDENTITY = Source(
    key="he2016identity", authors=("Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"),
    title="Identity Mappings in Deep Residual Networks", year=2016,
    venue="ECCV 2016, pp. 630-645", arxiv="1603.05027", doi="10.1007/978-3-319-46493-0_38")
HE2016_RESNET = Source(
    key="he2016resnet", authors=("Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"),
    title="Deep Residual Learning for Image Recognition", year=2016, venue="CVPR 2016",
    arxiv="1512.03385", doi="10.1109/CVPR.2016.90")
BA2016 = Source(
    key="ba2016", authors=("Jimmy Lei Ba", "Jamie Ryan Kiros", "Geoffrey E. Hinton"),
    title="Layer Normalization", year=2016, venue="arXiv preprint", arxiv="1607.06450")
SZEGEDY2016 = Source(
    key="szegedy2016", authors=("Christian Szegedy", "Vincent Vanhoucke", "Sergey Ioffe",
                                "Jonathon Shlens", "Zbigniew Wojna"),
    title="Rethinking the Inception Architecture for Computer Vision", year=2016,
    venue="CVPR 2016, pp. 2818-2826", arxiv="1512.00567", doi="10.1109/CVPR.2016.308")
KALRA_BARKESHLI2024 = Source(
    key="kalra2024", authors=("Dayal Singh Kalra", "Maissam Barkeshli"),
    title="Why Warmup the Learning Rate? Underlying Mechanisms and Improvements", year=2024,
    venue="NeurIPS 2024", arxiv="2406.09405",
    unverified="the venue (from the arXiv comment; the proceedings page was not read)")
MA_YARATS2021 = Source(
    key="ma2021", authors=("Jerry Ma", "Denis Yarats"),
    title="On the Adequacy of Untuned Warmup for Adaptive Optimization", year=2021,
    venue="AAAI-21, 35(10), pp. 8828-8836", arxiv="1910.04209",
    doi="10.1609/aaai.v35i10.17069")
SHWARTZ_ZIV_TISHBY2017 = Source(
    key="shwartzziv2017", authors=("Ravid Shwartz-Ziv", "Naftali Tishby"),
    title="Opening the Black Box of Deep Neural Networks via Information", year=2017,
    venue="arXiv preprint", arxiv="1703.00810")
HINTON2015 = Source(
    key="hinton2015", authors=("Geoffrey Hinton", "Oriol Vinyals", "Jeff Dean"),
    title="Distilling the Knowledge in a Neural Network", year=2015,
    venue="NIPS 2014 Deep Learning Workshop", arxiv="1503.02531")
SAXE2018 = Source(
    key="saxe2018", authors=("Andrew M. Saxe", "Yamini Bansal", "Joel Dapello", "Madhu Advani",
                             "Artemy Kolchinsky", "Brendan D. Tracey", "David D. Cox"),
    title="On the Information Bottleneck Theory of Deep Learning", year=2018, venue="ICLR 2018",
    url="https://openreview.net/forum?id=ry_WPG-A-",
    unverified="read from consistent reference lists; the OpenReview page was not read")
XIONG2020 = Source(
    key="xiong2020", authors=("Ruibin Xiong", "Yunchang Yang", "Di He", "Kai Zheng",
                              "Shuxin Zheng", "Chen Xing", "Huishuai Zhang", "Yanyan Lan",
                              "Liwei Wang", "Tie-Yan Liu"),
    title="On Layer Normalization in the Transformer Architecture", year=2020,
    venue="ICML 2020", arxiv="2002.04745")
WANG2019 = Source(
    key="wang2019", authors=("Qiang Wang", "Bei Li", "Tong Xiao", "Jingbo Zhu", "Changliang Li",
                             "Derek F. Wong", "Lidia S. Chao"),
    title="Learning Deep Transformer Models for Machine Translation", year=2019,
    venue="ACL 2019, pp. 1810-1822", arxiv="1906.01787", doi="10.18653/v1/P19-1176")
PRESS2022 = Source(
    key="press2022", authors=("Ofir Press", "Noah A. Smith", "Mike Lewis"),
    title="Train Short, Test Long: Attention with Linear Biases Enables Input Length "
          "Extrapolation", year=2022, venue="ICLR 2022", arxiv="2108.12409")
DAO2022 = Source(
    key="dao2022", authors=("Tri Dao", "Daniel Y. Fu", "Stefano Ermon", "Atri Rudra",
                            "Christopher Ré"),
    title="FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness",
    year=2022, venue="NeurIPS 2022", arxiv="2205.14135",
    unverified="the venue, and the 15% figure, from secondary copies of the abstract")
DEVLIN2019 = Source(
    key="devlin2019", authors=("Jacob Devlin", "Ming-Wei Chang", "Kenton Lee",
                               "Kristina Toutanova"),
    title="BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
    year=2019, venue="NAACL-HLT 2019, pp. 4171-4186", arxiv="1810.04805",
    doi="10.18653/v1/N19-1423")
RADFORD2018 = Source(
    key="radford2018", authors=("Alec Radford", "Karthik Narasimhan", "Tim Salimans",
                                "Ilya Sutskever"),
    title="Improving Language Understanding by Generative Pre-Training", year=2018,
    venue="OpenAI technical report",
    url="https://s3-us-west-2.amazonaws.com/openai-assets/research-covers/"
        "language-unsupervised/language_understanding_paper.pdf",
    unverified="read from summaries and a quoted excerpt of its model specifications; the "
               "PDF was not read")
RADFORD2019 = Source(
    key="radford2019", authors=("Alec Radford", "Jeffrey Wu", "Rewon Child", "David Luan",
                                "Dario Amodei", "Ilya Sutskever"),
    title="Language Models are Unsupervised Multitask Learners", year=2019,
    venue="OpenAI technical report",
    url="https://cdn.openai.com/better-language-models/"
        "language_models_are_unsupervised_multitask_learners.pdf",
    unverified="the model changes were read from a summary, so the section number (2.3)")
OPENAI_GPT2 = Source(
    key="openai-gpt2", authors=("OpenAI",), title="gpt-2: code and models", year=2019,
    venue="GitHub repository", url="https://github.com/openai/gpt-2",
    unverified="not read: the model files (hparams.json included) are downloaded by a "
               "script, not kept in the repository")
IOFFE2015 = Source(
    key="ioffe2015", authors=("Sergey Ioffe", "Christian Szegedy"),
    title="Batch Normalization: Accelerating Deep Network Training by Reducing Internal "
          "Covariate Shift", year=2015, venue="ICML 2015, PMLR 37:448-456", arxiv="1502.03167",
    unverified="the venue and pages come from consistent secondary records")
ZHANG_SENNRICH2019 = Source(
    key="zhang2019", authors=("Biao Zhang", "Rico Sennrich"),
    title="Root Mean Square Layer Normalization", year=2019,
    venue="NeurIPS 2019, pp. 12381-12392", arxiv="1910.07467",
    url="https://papers.nips.cc/paper/2019/hash/1e8a19426224ca89e83cef47f1e7f53b-Abstract.html",
    unverified="the arXiv id was not read from an arXiv page")
KINGMA_BA2015 = Source(
    key="kingma2015", authors=("Diederik P. Kingma", "Jimmy Ba"),
    title="Adam: A Method for Stochastic Optimization", year=2015, venue="ICLR 2015",
    arxiv="1412.6980",
    unverified="the default β values of its Algorithm 1 were read from secondary copies")
TOUVRON2023 = Source(
    key="touvron2023", authors=("Hugo Touvron", "Thibaut Lavril", "Gautier Izacard",
                                "Xavier Martinet", "Marie-Anne Lachaux", "Timothée Lacroix",
                                "Baptiste Rozière", "Naman Goyal", "Eric Hambro",
                                "Faisal Azhar", "Aurelien Rodriguez", "Armand Joulin",
                                "Edouard Grave", "Guillaume Lample"),
    title="LLaMA: Open and Efficient Foundation Language Models", year=2023,
    venue="arXiv preprint", arxiv="2302.13971",
    unverified="read from a reader's copy of the PDF (its metadata and highlighted "
               "passages), not from the arXiv page")
GEMMA2024 = Source(
    key="gemma2024", authors=("Gemma Team",),
    title="Gemma: Open Models Based on Gemini Research and Technology", year=2024,
    venue="arXiv preprint", arxiv="2403.08295",
    unverified="its architecture section was read only in secondary summaries")
RAFFEL2020 = Source(
    key="raffel2020", authors=("Colin Raffel", "Noam Shazeer", "Adam Roberts", "Katherine Lee",
                               "Sharan Narang", "Michael Matena", "Yanqi Zhou", "Wei Li",
                               "Peter J. Liu"),
    title="Exploring the Limits of Transfer Learning with a Unified Text-to-Text Transformer",
    year=2020, venue="Journal of Machine Learning Research 21(140), pp. 1-67",
    arxiv="1910.10683",
    unverified="that the model is an encoder-decoder was read from secondary descriptions")
LEWIS2020 = Source(
    key="lewis2020", authors=("Mike Lewis", "Yinhan Liu", "Naman Goyal", "Marjan Ghazvininejad",
                              "Abdelrahman Mohamed", "Omer Levy", "Ves Stoyanov",
                              "Luke Zettlemoyer"),
    title="BART: Denoising Sequence-to-Sequence Pre-training for Natural Language Generation, "
          "Translation, and Comprehension", year=2020, venue="ACL 2020", arxiv="1910.13461",
    unverified="the venue and its year, and the wording of its architecture section, from "
               "secondary records")
ROMBACH2022 = Source(
    key="rombach2022", authors=("Robin Rombach", "Andreas Blattmann", "Dominik Lorenz",
                                "Patrick Esser", "Björn Ommer"),
    title="High-Resolution Image Synthesis with Latent Diffusion Models", year=2022,
    venue="CVPR 2022", arxiv="2112.10752", doi="10.1109/CVPR52688.2022.01042",
    unverified="that Stable Diffusion is this model, and the DOI, from secondary records")
SU2024 = Source(
    key="su2024", authors=("Jianlin Su", "Yu Lu", "Shengfeng Pan", "Ahmed Murtadha", "Bo Wen",
                           "Yunfeng Liu"),
    title="RoFormer: Enhanced Transformer with Rotary Position Embedding", year=2024,
    venue="Neurocomputing 568, 127063", arxiv="2104.09864", doi="10.1016/j.neucom.2023.127063",
    unverified="the journal version (its volume, DOI and author order, which puts Murtadha "
               "Ahmed second) was read only in secondary references; the authors are in the "
               "order of the later arXiv versions (v1 of 2021 lists five, without Ahmed "
               "Murtadha)")
KATHAROPOULOS2020 = Source(
    key="katharopoulos2020", authors=("Angelos Katharopoulos", "Apoorv Vyas", "Nikolaos Pappas",
                                      "François Fleuret"),
    title="Transformers are RNNs: Fast Autoregressive Transformers with Linear Attention",
    year=2020, venue="ICML 2020", arxiv="2006.16236")
COVER_THOMAS2006 = Source(
    key="cover2006", authors=("Thomas M. Cover", "Joy A. Thomas"),
    title="Elements of Information Theory", year=2006,
    venue="John Wiley & Sons, 2nd edition", doi="10.1002/047174882X",
    unverified="the DOI was not read from a primary page")
LEI_MAO = Source(
    key="leimao", authors=("Lei Mao",),
    title="Cross Entropy, KL Divergence, and Maximum Likelihood Estimation", venue="blog",
    url="https://leimao.github.io/blog/Cross-Entropy-KL-Divergence-MLE/",
    unverified="the date of the post; its text was read in crawled copies, the URL in links "
               "to it")
MULLER2019 = Source(
    key="muller2019", authors=("Rafael Müller", "Simon Kornblith", "Geoffrey E. Hinton"),
    title="When Does Label Smoothing Help?", year=2019, venue="NeurIPS 2019",
    arxiv="1906.02629",
    url="https://papers.nips.cc/paper/2019/hash/f1748d6b0fd9d439f71450117eba2725-Abstract.html",
    unverified="the arXiv id, from secondary pages that link it")
BROWN2020 = Source(
    key="brown2020", authors=("Tom B. Brown", "Benjamin Mann", "Nick Ryder", "Melanie Subbiah",
                              "Jared Kaplan", "Prafulla Dhariwal", "Arvind Neelakantan",
                              "Pranav Shyam", "Girish Sastry", "Amanda Askell",
                              "Sandhini Agarwal", "Ariel Herbert-Voss", "Gretchen Krueger",
                              "Tom Henighan", "Rewon Child", "Aditya Ramesh",
                              "Daniel M. Ziegler", "Jeffrey Wu", "Clemens Winter",
                              "Christopher Hesse", "Mark Chen", "Eric Sigler", "Mateusz Litwin",
                              "Scott Gray", "Benjamin Chess", "Jack Clark",
                              "Christopher Berner", "Sam McCandlish", "Alec Radford",
                              "Ilya Sutskever", "Dario Amodei"),
    title="Language Models are Few-Shot Learners", year=2020, venue="NeurIPS 2020",
    arxiv="2005.14165")
LANDAU_LIFSHITZ1980 = Source(
    key="landau1980", authors=("L. D. Landau", "E. M. Lifshitz"),
    title="Statistical Physics, Part 1", year=1980,
    venue="Course of Theoretical Physics, Vol. 5, 3rd ed. (revised with L. P. Pitaevskii), "
          "Pergamon Press")
IEEE754_2019 = Source(
    key="ieee754-2019", authors=("IEEE",), title="IEEE Standard for Floating-Point Arithmetic",
    year=2019, venue="IEEE Std 754-2019 (July 2019)", doi="10.1109/IEEESTD.2019.8766229",
    url="https://ieeexplore.ieee.org/document/8766229",
    unverified="read from references to it; the standard itself was not read")
TISHBY1999 = Source(
    key="tishby1999", authors=("Naftali Tishby", "Fernando C. Pereira", "William Bialek"),
    title="The information bottleneck method", year=1999,
    venue="Proc. 37th Annual Allerton Conference on Communication, Control and Computing, "
          "pp. 368-377", arxiv="physics/0004057",
    unverified="authors, title, venue and arXiv id come from consistent secondary records; "
               "the arXiv page was not read")
